// Original file: switchyard/admin/v1/providers.proto

import type { Provider as _switchyard_admin_v1_Provider, Provider__Output as _switchyard_admin_v1_Provider__Output } from '../../../switchyard/admin/v1/Provider.js';

export interface ListProvidersResponse {
  'providers'?: (_switchyard_admin_v1_Provider)[];
}

export interface ListProvidersResponse__Output {
  'providers': (_switchyard_admin_v1_Provider__Output)[];
}
