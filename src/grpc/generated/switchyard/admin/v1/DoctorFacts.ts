// Original file: switchyard/admin/v1/daemon.proto

import type { DatabaseFacts as _switchyard_admin_v1_DatabaseFacts, DatabaseFacts__Output as _switchyard_admin_v1_DatabaseFacts__Output } from '../../../switchyard/admin/v1/DatabaseFacts.js';

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
  'storage_engine'?: (string);
  'database'?: (_switchyard_admin_v1_DatabaseFacts | null);
  '_database'?: "database";
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
  'storage_engine': (string);
  'database'?: (_switchyard_admin_v1_DatabaseFacts__Output | null);
  '_database'?: "database";
}
