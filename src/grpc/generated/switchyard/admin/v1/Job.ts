// Original file: switchyard/admin/v1/jobs.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';
import type { JobError as _switchyard_admin_v1_JobError, JobError__Output as _switchyard_admin_v1_JobError__Output } from '../../../switchyard/admin/v1/JobError.js';
import type { JobSubmitter as _switchyard_admin_v1_JobSubmitter, JobSubmitter__Output as _switchyard_admin_v1_JobSubmitter__Output } from '../../../switchyard/admin/v1/JobSubmitter.js';
import type { JobArtifact as _switchyard_admin_v1_JobArtifact, JobArtifact__Output as _switchyard_admin_v1_JobArtifact__Output } from '../../../switchyard/admin/v1/JobArtifact.js';

export interface Job {
  'id'?: (string);
  'organization_id'?: (string);
  'status'?: (string);
  'modality'?: (string);
  'tier'?: (string);
  'model'?: (string);
  'input'?: (_google_protobuf_Struct | null);
  'params'?: (_google_protobuf_Struct | null);
  'state'?: (_google_protobuf_Value | null);
  'provider'?: (string);
  'output'?: (_google_protobuf_Struct | null);
  'error'?: (_switchyard_admin_v1_JobError | null);
  'submitted_by'?: (_switchyard_admin_v1_JobSubmitter | null);
  'created_at'?: (string);
  'started_at'?: (string);
  'finished_at'?: (string);
  'updated_at'?: (string);
  'instance_id'?: (string);
  'artifacts'?: (_switchyard_admin_v1_JobArtifact)[];
  '_tier'?: "tier";
  '_model'?: "model";
  '_provider'?: "provider";
  '_started_at'?: "started_at";
  '_finished_at'?: "finished_at";
  '_instance_id'?: "instance_id";
}

export interface Job__Output {
  'id': (string);
  'organization_id': (string);
  'status': (string);
  'modality': (string);
  'tier'?: (string);
  'model'?: (string);
  'input': (_google_protobuf_Struct__Output | null);
  'params': (_google_protobuf_Struct__Output | null);
  'state': (_google_protobuf_Value__Output | null);
  'provider'?: (string);
  'output': (_google_protobuf_Struct__Output | null);
  'error': (_switchyard_admin_v1_JobError__Output | null);
  'submitted_by': (_switchyard_admin_v1_JobSubmitter__Output | null);
  'created_at': (string);
  'started_at'?: (string);
  'finished_at'?: (string);
  'updated_at': (string);
  'instance_id'?: (string);
  'artifacts': (_switchyard_admin_v1_JobArtifact__Output)[];
  '_tier'?: "tier";
  '_model'?: "model";
  '_provider'?: "provider";
  '_started_at'?: "started_at";
  '_finished_at'?: "finished_at";
  '_instance_id'?: "instance_id";
}
