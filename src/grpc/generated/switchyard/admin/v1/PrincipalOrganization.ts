// Original file: switchyard/admin/v1/principals.proto

import type { PrincipalTeamRole as _switchyard_admin_v1_PrincipalTeamRole, PrincipalTeamRole__Output as _switchyard_admin_v1_PrincipalTeamRole__Output } from '../../../switchyard/admin/v1/PrincipalTeamRole.js';

export interface PrincipalOrganization {
  'organization_id'?: (string);
  'slug'?: (string);
  'display_name'?: (string);
  'role'?: (string);
  'membership_id'?: (string);
  'teams'?: (_switchyard_admin_v1_PrincipalTeamRole)[];
  '_role'?: "role";
  '_membership_id'?: "membership_id";
}

export interface PrincipalOrganization__Output {
  'organization_id': (string);
  'slug': (string);
  'display_name': (string);
  'role'?: (string);
  'membership_id'?: (string);
  'teams': (_switchyard_admin_v1_PrincipalTeamRole__Output)[];
  '_role'?: "role";
  '_membership_id'?: "membership_id";
}
