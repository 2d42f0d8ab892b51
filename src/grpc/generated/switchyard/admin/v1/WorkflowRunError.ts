// Original file: switchyard/admin/v1/workflows.proto


export interface WorkflowRunError {
  'code'?: (string);
  'message'?: (string);
}

export interface WorkflowRunError__Output {
  'code': (string);
  'message': (string);
}
