// Every sublevel of the database is named here, so the whole layout can be read in one place.
// A collection `name` owns sublevel `name`; each of its indexes owns sublevel `name~index`.

export const collections = {
  events: { indexes: ['organization'] },
  principals: { indexes: ['email'] },
  organizations: { indexes: ['slug'] },
  teams: { indexes: ['organization'] },
  memberships: { indexes: ['principal', 'organization', 'scope'] },
  grants: { indexes: ['organization', 'principal'] },
  api_keys: { indexes: ['prefix', 'organization'] },
} as const satisfies Record<string, { indexes: readonly string[] }>;

export type CollectionName = keyof typeof collections;
export type IndexName<C extends CollectionName> = (typeof collections)[C]['indexes'][number];

/** Sublevels that are not collections: small key-value tables. */
export const tables = {
  /** schema_version, generated secrets, durable consumer cursors. */
  meta: 'meta',
} as const;

export function indexSublevelName(collection: string, index: string): string {
  return `${collection}~${index}`;
}
