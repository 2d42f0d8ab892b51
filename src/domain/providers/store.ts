import { Collection } from '../../storage/collection.js';
import type { Storage } from '../../storage/port.js';
import type { StoredProviderSettings, UsageBatch } from './types.js';

/** The storage wake-up topic of a routing-settings change: every daemon re-reads them at once. */
export const PROVIDER_SETTINGS_TOPIC = 'provider_settings';

export interface ProviderStore {
  settings: Collection<StoredProviderSettings>;
  usage: Collection<UsageBatch>;
}

export function createProviderStore(storage: Storage): ProviderStore {
  return {
    settings: new Collection<StoredProviderSettings>(storage, 'provider_settings', (s) => s.name),
    usage: new Collection<UsageBatch>(storage, 'provider_usage', (u) => u.id, [
      // Sorted by time, then id: a window is a range read, and paging on past equal times loses nothing.
      { name: 'organization', value: (u) => u.organization_id, sort: (u) => `${u.first_at}${u.id}` },
    ]),
  };
}
