// Original file: switchyard/admin/v1/daemon.proto


export interface DoctorFacts {
  'env'?: (string);
  'now'?: (string);
  'data_dir'?: (string);
  'data_dir_mode'?: (number);
  'data_dir_uid'?: (number);
  'daemon_uid'?: (number);
  'data_dir_allow_shared'?: (boolean);
  'data_dir_free_bytes'?: (number | string);
  'data_dir_total_bytes'?: (number | string);
  'email_transport'?: (string);
  'public_url'?: (string);
  'public_url_set'?: (boolean);
  'jwt_enabled'?: (boolean);
  'held_mail'?: (number);
  'failed_mail'?: (number);
  'invitations_expiring'?: (number);
  'expiring_window_seconds'?: (number);
  'email_from'?: (string);
}

export interface DoctorFacts__Output {
  'env': (string);
  'now': (string);
  'data_dir': (string);
  'data_dir_mode': (number);
  'data_dir_uid': (number);
  'daemon_uid': (number);
  'data_dir_allow_shared': (boolean);
  'data_dir_free_bytes': (number);
  'data_dir_total_bytes': (number);
  'email_transport': (string);
  'public_url': (string);
  'public_url_set': (boolean);
  'jwt_enabled': (boolean);
  'held_mail': (number);
  'failed_mail': (number);
  'invitations_expiring': (number);
  'expiring_window_seconds': (number);
  'email_from': (string);
}
