// Original file: switchyard/admin/v1/organizations.proto

import type { Organization as _switchyard_admin_v1_Organization, Organization__Output as _switchyard_admin_v1_Organization__Output } from '../../../switchyard/admin/v1/Organization.js';

export interface ListOrganizationsResponse {
  'organizations'?: (_switchyard_admin_v1_Organization)[];
  'next_cursor'?: (string);
}

export interface ListOrganizationsResponse__Output {
  'organizations': (_switchyard_admin_v1_Organization__Output)[];
  'next_cursor': (string);
}
