// Original file: switchyard/admin/v1/workflows.proto


export interface DeleteWorkflowRequest {
  'organization'?: (string);
  'name'?: (string);
}

export interface DeleteWorkflowRequest__Output {
  'organization': (string);
  'name': (string);
}
