// Original file: switchyard/admin/v1/workflows.proto


export interface GetWorkflowRequest {
  'organization'?: (string);
  'name'?: (string);
}

export interface GetWorkflowRequest__Output {
  'organization': (string);
  'name': (string);
}
