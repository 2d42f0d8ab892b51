// Original file: switchyard/admin/v1/workflows.proto


export interface ListWorkflowsRequest {
  'organization'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
}

export interface ListWorkflowsRequest__Output {
  'organization': (string);
  'limit': (number);
  'cursor': (string);
}
