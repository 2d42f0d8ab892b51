// Original file: switchyard/admin/v1/members.proto


export interface RemoveMemberRequest {
  'organization'?: (string);
  'membership_id'?: (string);
}

export interface RemoveMemberRequest__Output {
  'organization': (string);
  'membership_id': (string);
}
