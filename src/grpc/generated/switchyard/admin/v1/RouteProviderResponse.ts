// Original file: switchyard/admin/v1/providers.proto

import type { RouteCandidate as _switchyard_admin_v1_RouteCandidate, RouteCandidate__Output as _switchyard_admin_v1_RouteCandidate__Output } from '../../../switchyard/admin/v1/RouteCandidate.js';
import type { RouteRejection as _switchyard_admin_v1_RouteRejection, RouteRejection__Output as _switchyard_admin_v1_RouteRejection__Output } from '../../../switchyard/admin/v1/RouteRejection.js';

export interface RouteProviderResponse {
  'winner'?: (string);
  'model'?: (string);
  'candidates'?: (_switchyard_admin_v1_RouteCandidate)[];
  'rejected'?: (_switchyard_admin_v1_RouteRejection)[];
  '_winner'?: "winner";
  '_model'?: "model";
}

export interface RouteProviderResponse__Output {
  'winner'?: (string);
  'model'?: (string);
  'candidates': (_switchyard_admin_v1_RouteCandidate__Output)[];
  'rejected': (_switchyard_admin_v1_RouteRejection__Output)[];
  '_winner'?: "winner";
  '_model'?: "model";
}
