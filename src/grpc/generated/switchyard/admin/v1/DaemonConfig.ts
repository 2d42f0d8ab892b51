// Original file: switchyard/admin/v1/daemon.proto

import type { ConfigSetting as _switchyard_admin_v1_ConfigSetting, ConfigSetting__Output as _switchyard_admin_v1_ConfigSetting__Output } from '../../../switchyard/admin/v1/ConfigSetting.js';

export interface DaemonConfig {
  'settings'?: (_switchyard_admin_v1_ConfigSetting)[];
}

export interface DaemonConfig__Output {
  'settings': (_switchyard_admin_v1_ConfigSetting__Output)[];
}
