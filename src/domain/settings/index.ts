import type { Area, AreaBase } from '../area.js';
import type { IdentityServices } from '../identity/index.js';
import { SettingsService } from './service.js';

export interface SettingsServices {
  settings: SettingsService;
}

/** Per-organization settings (spec 2.4): display name, logo, sender name, invitation limits. */
export function createSettings({
  storage,
  config,
  audit,
  permissions,
  organizations,
}: AreaBase & Pick<IdentityServices, 'permissions' | 'organizations'>): Area<SettingsServices> {
  const settings = new SettingsService(
    storage,
    permissions,
    organizations,
    audit,
    config.webhookMaxPerOrganization,
    config.runWaitTimeoutMs,
  );
  return { services: { settings }, count: async () => ({ settings: await settings.countSettings() }) };
}
