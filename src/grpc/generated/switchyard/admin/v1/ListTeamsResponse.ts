// Original file: switchyard/admin/v1/teams.proto

import type { Team as _switchyard_admin_v1_Team, Team__Output as _switchyard_admin_v1_Team__Output } from '../../../switchyard/admin/v1/Team.js';

export interface ListTeamsResponse {
  'teams'?: (_switchyard_admin_v1_Team)[];
  'next_cursor'?: (string);
}

export interface ListTeamsResponse__Output {
  'teams': (_switchyard_admin_v1_Team__Output)[];
  'next_cursor': (string);
}
