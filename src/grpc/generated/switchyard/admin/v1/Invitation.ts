// Original file: switchyard/admin/v1/invitations.proto


export interface Invitation {
  'id'?: (string);
  'organization_id'?: (string);
  'email'?: (string);
  'role'?: (string);
  'status'?: (string);
  'expires_at'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  'created_by'?: (string);
  'outbox_entry_id'?: (string);
  'send_count'?: (number);
  'accepted_at'?: (string);
  'accepted_by'?: (string);
  'membership_id'?: (string);
  'revoked_at'?: (string);
  'revoked_by'?: (string);
  'expired_at'?: (string);
  '_created_by'?: "created_by";
  '_outbox_entry_id'?: "outbox_entry_id";
  '_accepted_at'?: "accepted_at";
  '_accepted_by'?: "accepted_by";
  '_membership_id'?: "membership_id";
  '_revoked_at'?: "revoked_at";
  '_revoked_by'?: "revoked_by";
  '_expired_at'?: "expired_at";
}

export interface Invitation__Output {
  'id': (string);
  'organization_id': (string);
  'email': (string);
  'role': (string);
  'status': (string);
  'expires_at': (string);
  'created_at': (string);
  'updated_at': (string);
  'created_by'?: (string);
  'outbox_entry_id'?: (string);
  'send_count': (number);
  'accepted_at'?: (string);
  'accepted_by'?: (string);
  'membership_id'?: (string);
  'revoked_at'?: (string);
  'revoked_by'?: (string);
  'expired_at'?: (string);
  '_created_by'?: "created_by";
  '_outbox_entry_id'?: "outbox_entry_id";
  '_accepted_at'?: "accepted_at";
  '_accepted_by'?: "accepted_by";
  '_membership_id'?: "membership_id";
  '_revoked_at'?: "revoked_at";
  '_revoked_by'?: "revoked_by";
  '_expired_at'?: "expired_at";
}
