// Original file: switchyard/admin/v1/daemon.proto

import type { LoopStatus as _switchyard_admin_v1_LoopStatus, LoopStatus__Output as _switchyard_admin_v1_LoopStatus__Output } from '../../../switchyard/admin/v1/LoopStatus.js';

export interface DaemonStatus {
  'version'?: (string);
  'state'?: (string);
  'env'?: (string);
  'started_at'?: (string);
  'uptime_seconds'?: (number | string);
  'data_dir'?: (string);
  'http_url'?: (string);
  'grpc_socket'?: (string);
  'grpc_address'?: (string);
  'loops'?: (_switchyard_admin_v1_LoopStatus)[];
  'counts'?: ({[key: string]: number});
  'email_transport'?: (string);
  'public_url'?: (string);
  'public_url_set'?: (boolean);
  'jwt_enabled'?: (boolean);
  'pending_invitations'?: (number);
  'outbox'?: ({[key: string]: number});
  'storage_engine'?: (string);
  '_grpc_address'?: "grpc_address";
}

export interface DaemonStatus__Output {
  'version': (string);
  'state': (string);
  'env': (string);
  'started_at': (string);
  'uptime_seconds': (number);
  'data_dir': (string);
  'http_url': (string);
  'grpc_socket': (string);
  'grpc_address'?: (string);
  'loops': (_switchyard_admin_v1_LoopStatus__Output)[];
  'counts': ({[key: string]: number});
  'email_transport': (string);
  'public_url': (string);
  'public_url_set': (boolean);
  'jwt_enabled': (boolean);
  'pending_invitations': (number);
  'outbox': ({[key: string]: number});
  'storage_engine': (string);
  '_grpc_address'?: "grpc_address";
}
