// Original file: switchyard/admin/v1/members.proto


export interface UpdateMemberRoleRequest {
  'organization'?: (string);
  'membership_id'?: (string);
  'role'?: (string);
}

export interface UpdateMemberRoleRequest__Output {
  'organization': (string);
  'membership_id': (string);
  'role': (string);
}
