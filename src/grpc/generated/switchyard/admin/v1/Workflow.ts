// Original file: switchyard/admin/v1/workflows.proto

import type { WorkflowNode as _switchyard_admin_v1_WorkflowNode, WorkflowNode__Output as _switchyard_admin_v1_WorkflowNode__Output } from '../../../switchyard/admin/v1/WorkflowNode.js';

export interface Workflow {
  'id'?: (string);
  'organization_id'?: (string);
  'name'?: (string);
  'version'?: (number);
  'nodes'?: (_switchyard_admin_v1_WorkflowNode)[];
  'created_at'?: (string);
  'updated_at'?: (string);
}

export interface Workflow__Output {
  'id': (string);
  'organization_id': (string);
  'name': (string);
  'version': (number);
  'nodes': (_switchyard_admin_v1_WorkflowNode__Output)[];
  'created_at': (string);
  'updated_at': (string);
}
