// Original file: switchyard/admin/v1/workflows.proto


export interface DeleteScheduleRequest {
  'organization'?: (string);
  'workflow'?: (string);
  'id'?: (string);
}

export interface DeleteScheduleRequest__Output {
  'organization': (string);
  'workflow': (string);
  'id': (string);
}
