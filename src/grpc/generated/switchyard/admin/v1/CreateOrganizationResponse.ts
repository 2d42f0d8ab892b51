// Original file: switchyard/admin/v1/organizations.proto

import type { Organization as _switchyard_admin_v1_Organization, Organization__Output as _switchyard_admin_v1_Organization__Output } from '../../../switchyard/admin/v1/Organization.js';
import type { Membership as _switchyard_admin_v1_Membership, Membership__Output as _switchyard_admin_v1_Membership__Output } from '../../../switchyard/admin/v1/Membership.js';

export interface CreateOrganizationResponse {
  'organization'?: (_switchyard_admin_v1_Organization | null);
  'owner'?: (_switchyard_admin_v1_Membership | null);
}

export interface CreateOrganizationResponse__Output {
  'organization': (_switchyard_admin_v1_Organization__Output | null);
  'owner': (_switchyard_admin_v1_Membership__Output | null);
}
