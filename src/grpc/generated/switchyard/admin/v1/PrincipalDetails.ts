// Original file: switchyard/admin/v1/principals.proto

import type { Principal as _switchyard_admin_v1_Principal, Principal__Output as _switchyard_admin_v1_Principal__Output } from '../../../switchyard/admin/v1/Principal.js';
import type { PrincipalOrganization as _switchyard_admin_v1_PrincipalOrganization, PrincipalOrganization__Output as _switchyard_admin_v1_PrincipalOrganization__Output } from '../../../switchyard/admin/v1/PrincipalOrganization.js';

export interface PrincipalDetails {
  'principal'?: (_switchyard_admin_v1_Principal | null);
  'organizations'?: (_switchyard_admin_v1_PrincipalOrganization)[];
}

export interface PrincipalDetails__Output {
  'principal': (_switchyard_admin_v1_Principal__Output | null);
  'organizations': (_switchyard_admin_v1_PrincipalOrganization__Output)[];
}
