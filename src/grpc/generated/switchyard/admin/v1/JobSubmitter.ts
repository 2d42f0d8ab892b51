// Original file: switchyard/admin/v1/jobs.proto


export interface JobSubmitter {
  'principal_id'?: (string);
  'api_key_id'?: (string);
  '_principal_id'?: "principal_id";
  '_api_key_id'?: "api_key_id";
}

export interface JobSubmitter__Output {
  'principal_id'?: (string);
  'api_key_id'?: (string);
  '_principal_id'?: "principal_id";
  '_api_key_id'?: "api_key_id";
}
