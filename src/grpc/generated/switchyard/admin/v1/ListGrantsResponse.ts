// Original file: switchyard/admin/v1/grants.proto

import type { Grant as _switchyard_admin_v1_Grant, Grant__Output as _switchyard_admin_v1_Grant__Output } from '../../../switchyard/admin/v1/Grant.js';

export interface ListGrantsResponse {
  'grants'?: (_switchyard_admin_v1_Grant)[];
  'next_cursor'?: (string);
}

export interface ListGrantsResponse__Output {
  'grants': (_switchyard_admin_v1_Grant__Output)[];
  'next_cursor': (string);
}
