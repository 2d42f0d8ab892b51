// Original file: switchyard/admin/v1/workflows.proto

import type { Event as _switchyard_admin_v1_Event, Event__Output as _switchyard_admin_v1_Event__Output } from '../../../switchyard/admin/v1/Event.js';

export interface ListRunEventsResponse {
  'events'?: (_switchyard_admin_v1_Event)[];
}

export interface ListRunEventsResponse__Output {
  'events': (_switchyard_admin_v1_Event__Output)[];
}
