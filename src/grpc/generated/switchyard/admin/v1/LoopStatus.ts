// Original file: switchyard/admin/v1/daemon.proto


export interface LoopStatus {
  'name'?: (string);
  'running'?: (boolean);
  'interval_ms'?: (number);
  'runs'?: (number);
  'failures'?: (number);
  'consecutive_failures'?: (number);
  'last_run_at'?: (string);
  'last_error'?: (string);
  '_last_run_at'?: "last_run_at";
  '_last_error'?: "last_error";
}

export interface LoopStatus__Output {
  'name': (string);
  'running': (boolean);
  'interval_ms': (number);
  'runs': (number);
  'failures': (number);
  'consecutive_failures': (number);
  'last_run_at'?: (string);
  'last_error'?: (string);
  '_last_run_at'?: "last_run_at";
  '_last_error'?: "last_error";
}
