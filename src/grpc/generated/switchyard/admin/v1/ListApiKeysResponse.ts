// Original file: switchyard/admin/v1/api_keys.proto

import type { ApiKey as _switchyard_admin_v1_ApiKey, ApiKey__Output as _switchyard_admin_v1_ApiKey__Output } from '../../../switchyard/admin/v1/ApiKey.js';

export interface ListApiKeysResponse {
  'api_keys'?: (_switchyard_admin_v1_ApiKey)[];
  'next_cursor'?: (string);
}

export interface ListApiKeysResponse__Output {
  'api_keys': (_switchyard_admin_v1_ApiKey__Output)[];
  'next_cursor': (string);
}
