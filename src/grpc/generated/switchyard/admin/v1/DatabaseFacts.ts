// Original file: switchyard/admin/v1/daemon.proto


export interface DatabaseFacts {
  'url'?: (string);
  'reachable'?: (boolean);
  'error'?: (string);
  'round_trip_ms'?: (number);
  'server_version'?: (string);
  'server_version_num'?: (number);
  'migrations_applied'?: (number);
  'migrations_expected'?: (number);
  'in_recovery'?: (boolean);
  'replay_lag_seconds'?: (number | string);
  '_error'?: "error";
  '_replay_lag_seconds'?: "replay_lag_seconds";
}

export interface DatabaseFacts__Output {
  'url': (string);
  'reachable': (boolean);
  'error'?: (string);
  'round_trip_ms': (number);
  'server_version': (string);
  'server_version_num': (number);
  'migrations_applied': (number);
  'migrations_expected': (number);
  'in_recovery': (boolean);
  'replay_lag_seconds'?: (number);
  '_error'?: "error";
  '_replay_lag_seconds'?: "replay_lag_seconds";
}
