// Original file: switchyard/admin/v1/jobs.proto


export interface JobError {
  'code'?: (string);
  'message'?: (string);
}

export interface JobError__Output {
  'code': (string);
  'message': (string);
}
