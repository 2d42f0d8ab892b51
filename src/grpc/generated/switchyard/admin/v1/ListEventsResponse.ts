// Original file: switchyard/admin/v1/events.proto

import type { Event as _switchyard_admin_v1_Event, Event__Output as _switchyard_admin_v1_Event__Output } from '../../../switchyard/admin/v1/Event.js';

export interface ListEventsResponse {
  'events'?: (_switchyard_admin_v1_Event)[];
  'next_cursor'?: (string);
}

export interface ListEventsResponse__Output {
  'events': (_switchyard_admin_v1_Event__Output)[];
  'next_cursor': (string);
}
