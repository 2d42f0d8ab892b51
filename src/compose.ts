import type { Area, AreaBase } from './domain/area.js';
import type { PermissionEngine } from './domain/identity/permissions.js';
import type { Loop } from './loops/loop.js';

/** The areas, composed: one typed services object, and what the daemon runs and closes. */
export interface Composed<S extends object> {
  services: S;
  loops: Loop[];
  /** Record counts of every area, by table. */
  count: () => Promise<Record<string, number>>;
  /** Closes the areas in reverse order of composition. */
  close: () => Promise<void>;
}

type Built<S> = { services: S; areas: Area<object>[] };

/**
 * Builds areas in dependency order: each `create<Area>` receives the base and the services of the
 * areas before it, and the compiler checks that what it needs is there. Adding an area is one
 * `.add(create<Area>)` line.
 */
export class Composition<S extends object> {
  private constructor(
    private readonly base: AreaBase,
    private readonly built: Promise<Built<S>>,
  ) {}

  static of(base: AreaBase): Composition<object> {
    return new Composition(base, Promise.resolve({ services: {}, areas: [] }));
  }

  // An area's service may not take a name of the base (it would hide the base's own from later areas).
  add<T extends object & { [K in keyof AreaBase]?: never }>(
    create: (deps: AreaBase & S) => Area<T> | Promise<Area<T>>,
  ): Composition<S & T> {
    const built = this.built.then(async ({ services, areas }): Promise<Built<S & T>> => {
      const area = await create({ ...this.base, ...services });
      return { services: { ...services, ...area.services }, areas: [...areas, area] };
    });
    return new Composition(this.base, built);
  }

  /** Registers every area's resource types with the permission engine and hands out the result. */
  async done(this: Composition<S & { permissions: PermissionEngine }>): Promise<Composed<S>> {
    const { services, areas } = await this.built;
    for (const area of areas)
      for (const [type, resolver] of Object.entries(area.resources ?? {}))
        services.permissions.registerResourceType(type, resolver);
    return {
      services,
      loops: areas.flatMap((area) => area.loops ?? []),
      count: async () => {
        const counts: Record<string, number> = {};
        for (const area of areas) Object.assign(counts, await area.count?.());
        return counts;
      },
      close: async () => {
        for (const area of [...areas].reverse()) await area.close?.();
      },
    };
  }
}
