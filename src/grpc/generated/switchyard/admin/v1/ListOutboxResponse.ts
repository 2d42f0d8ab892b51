// Original file: switchyard/admin/v1/outbox.proto

import type { OutboxEntry as _switchyard_admin_v1_OutboxEntry, OutboxEntry__Output as _switchyard_admin_v1_OutboxEntry__Output } from '../../../switchyard/admin/v1/OutboxEntry.js';

export interface ListOutboxResponse {
  'entries'?: (_switchyard_admin_v1_OutboxEntry)[];
  'next_cursor'?: (string);
}

export interface ListOutboxResponse__Output {
  'entries': (_switchyard_admin_v1_OutboxEntry__Output)[];
  'next_cursor': (string);
}
