import { Collection } from '../../storage/collection.js';
import type { Storage } from '../../storage/port.js';
import type { StoredSettings } from './types.js';

export function createSettingsStore(storage: Storage): Collection<StoredSettings> {
  return new Collection<StoredSettings>(storage, 'organization_settings', (s) => s.organization_id);
}
