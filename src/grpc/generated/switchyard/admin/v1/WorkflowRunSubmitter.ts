// Original file: switchyard/admin/v1/workflows.proto


export interface WorkflowRunSubmitter {
  'principal_id'?: (string);
  'api_key_id'?: (string);
  '_principal_id'?: "principal_id";
  '_api_key_id'?: "api_key_id";
}

export interface WorkflowRunSubmitter__Output {
  'principal_id'?: (string);
  'api_key_id'?: (string);
  '_principal_id'?: "principal_id";
  '_api_key_id'?: "api_key_id";
}
