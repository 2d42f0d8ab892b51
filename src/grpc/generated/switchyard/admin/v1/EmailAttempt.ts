// Original file: switchyard/admin/v1/outbox.proto


export interface EmailAttempt {
  'at'?: (string);
  'duration_ms'?: (number);
  'error'?: (string);
  'status_code'?: (number);
  'interrupted'?: (boolean);
  '_error'?: "error";
  '_status_code'?: "status_code";
}

export interface EmailAttempt__Output {
  'at': (string);
  'duration_ms': (number);
  'error'?: (string);
  'status_code'?: (number);
  'interrupted': (boolean);
  '_error'?: "error";
  '_status_code'?: "status_code";
}
