// Original file: switchyard/admin/v1/workflows.proto


export interface ListRunsRequest {
  'organization'?: (string);
  'workflow'?: (string);
  'status'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  '_workflow'?: "workflow";
  '_status'?: "status";
}

export interface ListRunsRequest__Output {
  'organization': (string);
  'workflow'?: (string);
  'status'?: (string);
  'limit': (number);
  'cursor': (string);
  '_workflow'?: "workflow";
  '_status'?: "status";
}
