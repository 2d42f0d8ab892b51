// Original file: switchyard/admin/v1/providers.proto

import type { UsageRow as _switchyard_admin_v1_UsageRow, UsageRow__Output as _switchyard_admin_v1_UsageRow__Output } from '../../../switchyard/admin/v1/UsageRow.js';

export interface ProviderUsageResponse {
  'rows'?: (_switchyard_admin_v1_UsageRow)[];
}

export interface ProviderUsageResponse__Output {
  'rows': (_switchyard_admin_v1_UsageRow__Output)[];
}
