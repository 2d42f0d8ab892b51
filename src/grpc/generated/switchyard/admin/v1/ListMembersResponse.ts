// Original file: switchyard/admin/v1/members.proto

import type { Membership as _switchyard_admin_v1_Membership, Membership__Output as _switchyard_admin_v1_Membership__Output } from '../../../switchyard/admin/v1/Membership.js';

export interface ListMembersResponse {
  'memberships'?: (_switchyard_admin_v1_Membership)[];
  'next_cursor'?: (string);
}

export interface ListMembersResponse__Output {
  'memberships': (_switchyard_admin_v1_Membership__Output)[];
  'next_cursor': (string);
}
