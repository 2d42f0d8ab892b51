// Original file: switchyard/admin/v1/providers.proto

import type { Capability as _switchyard_admin_v1_Capability, Capability__Output as _switchyard_admin_v1_Capability__Output } from '../../../switchyard/admin/v1/Capability.js';
import type { ProviderHealth as _switchyard_admin_v1_ProviderHealth, ProviderHealth__Output as _switchyard_admin_v1_ProviderHealth__Output } from '../../../switchyard/admin/v1/ProviderHealth.js';
import type { UnavailableModel as _switchyard_admin_v1_UnavailableModel, UnavailableModel__Output as _switchyard_admin_v1_UnavailableModel__Output } from '../../../switchyard/admin/v1/UnavailableModel.js';

export interface Provider {
  'name'?: (string);
  'kind'?: (string);
  'tier'?: (string);
  'modalities'?: (string)[];
  'models'?: (string)[];
  'streaming'?: (string);
  'capabilities'?: (_switchyard_admin_v1_Capability)[];
  'health'?: (_switchyard_admin_v1_ProviderHealth | null);
  'enabled'?: (boolean);
  'drained'?: (boolean);
  'unavailable_models'?: (_switchyard_admin_v1_UnavailableModel)[];
  '_streaming'?: "streaming";
}

export interface Provider__Output {
  'name': (string);
  'kind': (string);
  'tier': (string);
  'modalities': (string)[];
  'models': (string)[];
  'streaming'?: (string);
  'capabilities': (_switchyard_admin_v1_Capability__Output)[];
  'health': (_switchyard_admin_v1_ProviderHealth__Output | null);
  'enabled': (boolean);
  'drained': (boolean);
  'unavailable_models': (_switchyard_admin_v1_UnavailableModel__Output)[];
  '_streaming'?: "streaming";
}
