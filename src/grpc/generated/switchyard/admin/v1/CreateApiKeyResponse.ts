// Original file: switchyard/admin/v1/api_keys.proto

import type { ApiKey as _switchyard_admin_v1_ApiKey, ApiKey__Output as _switchyard_admin_v1_ApiKey__Output } from '../../../switchyard/admin/v1/ApiKey.js';

export interface CreateApiKeyResponse {
  'api_key'?: (_switchyard_admin_v1_ApiKey | null);
  'raw_key'?: (string);
}

export interface CreateApiKeyResponse__Output {
  'api_key': (_switchyard_admin_v1_ApiKey__Output | null);
  'raw_key': (string);
}
