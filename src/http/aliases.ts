import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';

// Contract 13: the specification spells request fields in camelCase (`organizationId`,
// `resourceType`, `resourceId`); the API's names are snake_case. Every snake_case field of a request
// schema takes its camelCase spelling as an alias, renamed before validation, read from the schema
// itself so that opaque JSON (a run's input, a webhook's state) is never touched.

/** Where a schema's fields take their camelCase spellings. */
export interface AliasPlan {
  /** camelCase spelling -> the field's name. */
  readonly aliases: ReadonlyMap<string, string>;
  /** Fields whose values are objects (or arrays of them) with fields of their own. */
  readonly fields: ReadonlyMap<string, AliasPlan>;
  /** The plan of each item, for an array. */
  readonly items: AliasPlan | undefined;
}

/** The parts of a zod definition the walk reads (zod 4's `_zod.def`). */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: readonly z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function merge(a: AliasPlan | undefined, b: AliasPlan | undefined): AliasPlan | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const fields = new Map(a.fields);
  for (const [name, plan] of b.fields) fields.set(name, merge(fields.get(name), plan)!);
  return { aliases: new Map([...a.aliases, ...b.aliases]), fields, items: merge(a.items, b.items) };
}

/** The alias plan of a request schema, or undefined when no field of it has another spelling. */
export function aliasPlanOf(schema: z.ZodType | undefined): AliasPlan | undefined {
  if (schema === undefined) return undefined;
  const def = schema._zod.def as unknown as SchemaDef;
  if (WRAPPERS.has(def.type)) return aliasPlanOf(def.innerType);
  switch (def.type) {
    case 'pipe':
      return aliasPlanOf(def.in);
    case 'array': {
      const items = aliasPlanOf(def.element);
      return items === undefined ? undefined : { aliases: new Map(), fields: new Map(), items };
    }
    case 'union':
      return (def.options ?? []).map((option) => aliasPlanOf(option)).reduce(merge, undefined);
    case 'intersection':
      return merge(aliasPlanOf(def.left), aliasPlanOf(def.right));
    case 'object': {
      const shape = def.shape ?? {};
      const aliases = new Map<string, string>();
      const fields = new Map<string, AliasPlan>();
      for (const [name, field] of Object.entries(shape)) {
        const alias = camelCase(name);
        if (alias !== name && !(alias in shape)) aliases.set(alias, name);
        const plan = aliasPlanOf(field);
        if (plan !== undefined) fields.set(name, plan);
      }
      return aliases.size === 0 && fields.size === 0 ? undefined : { aliases, fields, items: undefined };
    }
    default:
      // Records, z.json() (a lazy), scalars: their keys are the caller's own, never renamed.
      return undefined;
  }
}

/**
 * Renames, in place, each camelCase spelling in `value` to its field's name. Returns the spellings
 * given beside their field with a different value (dotted path -> reason), or undefined when none.
 */
export function applyAliases(plan: AliasPlan, value: unknown, path = ''): Record<string, string> | undefined {
  let clashes: Record<string, string> | undefined;
  const add = (more: Record<string, string> | undefined) => {
    if (more !== undefined) clashes = { ...clashes, ...more };
  };
  if (Array.isArray(value)) {
    if (plan.items !== undefined) for (let i = 0; i < value.length; i++) add(applyAliases(plan.items, value[i], `${path}${i}.`));
    return clashes;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const object = value as Record<string, unknown>;
  if (plan.aliases.size > 0)
    for (const key of Object.keys(object)) {
      const name = plan.aliases.get(key);
      if (name === undefined) continue;
      const given = object[key];
      delete object[key];
      if (!Object.hasOwn(object, name)) object[name] = given;
      else if (!isDeepStrictEqual(object[name], given))
        add({ [path + key]: `the same field as ${name}, given with a different value` });
    }
  for (const [name, child] of plan.fields)
    if (Object.hasOwn(object, name)) add(applyAliases(child, object[name], `${path}${name}.`));
  return clashes;
}
