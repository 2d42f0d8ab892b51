import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.js';
import type { CancelJobRequest as _switchyard_admin_v1_CancelJobRequest, CancelJobRequest__Output as _switchyard_admin_v1_CancelJobRequest__Output } from './switchyard/admin/v1/CancelJobRequest.js';
import type { CreateJobRequest as _switchyard_admin_v1_CreateJobRequest, CreateJobRequest__Output as _switchyard_admin_v1_CreateJobRequest__Output } from './switchyard/admin/v1/CreateJobRequest.js';
import type { GetJobRequest as _switchyard_admin_v1_GetJobRequest, GetJobRequest__Output as _switchyard_admin_v1_GetJobRequest__Output } from './switchyard/admin/v1/GetJobRequest.js';
import type { Job as _switchyard_admin_v1_Job, Job__Output as _switchyard_admin_v1_Job__Output } from './switchyard/admin/v1/Job.js';
import type { JobArtifact as _switchyard_admin_v1_JobArtifact, JobArtifact__Output as _switchyard_admin_v1_JobArtifact__Output } from './switchyard/admin/v1/JobArtifact.js';
import type { JobError as _switchyard_admin_v1_JobError, JobError__Output as _switchyard_admin_v1_JobError__Output } from './switchyard/admin/v1/JobError.js';
import type { JobServiceClient as _switchyard_admin_v1_JobServiceClient, JobServiceDefinition as _switchyard_admin_v1_JobServiceDefinition } from './switchyard/admin/v1/JobService.js';
import type { JobSubmitter as _switchyard_admin_v1_JobSubmitter, JobSubmitter__Output as _switchyard_admin_v1_JobSubmitter__Output } from './switchyard/admin/v1/JobSubmitter.js';
import type { ListJobsRequest as _switchyard_admin_v1_ListJobsRequest, ListJobsRequest__Output as _switchyard_admin_v1_ListJobsRequest__Output } from './switchyard/admin/v1/ListJobsRequest.js';
import type { ListJobsResponse as _switchyard_admin_v1_ListJobsResponse, ListJobsResponse__Output as _switchyard_admin_v1_ListJobsResponse__Output } from './switchyard/admin/v1/ListJobsResponse.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
  switchyard: {
    admin: {
      v1: {
        CancelJobRequest: MessageTypeDefinition<_switchyard_admin_v1_CancelJobRequest, _switchyard_admin_v1_CancelJobRequest__Output>
        CreateJobRequest: MessageTypeDefinition<_switchyard_admin_v1_CreateJobRequest, _switchyard_admin_v1_CreateJobRequest__Output>
        GetJobRequest: MessageTypeDefinition<_switchyard_admin_v1_GetJobRequest, _switchyard_admin_v1_GetJobRequest__Output>
        Job: MessageTypeDefinition<_switchyard_admin_v1_Job, _switchyard_admin_v1_Job__Output>
        JobArtifact: MessageTypeDefinition<_switchyard_admin_v1_JobArtifact, _switchyard_admin_v1_JobArtifact__Output>
        JobError: MessageTypeDefinition<_switchyard_admin_v1_JobError, _switchyard_admin_v1_JobError__Output>
        JobService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_JobServiceClient> & { service: _switchyard_admin_v1_JobServiceDefinition }
        JobSubmitter: MessageTypeDefinition<_switchyard_admin_v1_JobSubmitter, _switchyard_admin_v1_JobSubmitter__Output>
        ListJobsRequest: MessageTypeDefinition<_switchyard_admin_v1_ListJobsRequest, _switchyard_admin_v1_ListJobsRequest__Output>
        ListJobsResponse: MessageTypeDefinition<_switchyard_admin_v1_ListJobsResponse, _switchyard_admin_v1_ListJobsResponse__Output>
      }
    }
  }
}

