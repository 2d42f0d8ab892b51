import { readFileSync, writeFileSync } from 'node:fs';
import { listEventTypes } from './catalog.js';

// The event catalog as docs/webhooks.md shows it, rendered from the catalog itself:
// `npm run docs:events` rewrites the section, test/event-types.test.ts fails when it is stale.

export const CATALOG_BEGIN = '<!-- event-catalog:begin (generated: npm run docs:events) -->';
export const CATALOG_END = '<!-- event-catalog:end -->';

type JsonSchema = Record<string, unknown>;

/** A property's type in a few words: `string`, `string or null`, `one of a, b`, `object`. */
function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}`;
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(typeOf).join(' or ');
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (typeof schema.type === 'string') return schema.type;
  return 'any JSON';
}

/** The catalog in Markdown: one section per kind with its fields and an example payload. */
export function renderEventCatalog(): string {
  const out: string[] = [];
  for (const type of listEventTypes()) {
    out.push(`### \`${type.kind}\``, '', type.description, '');
    const properties = (type.payload_schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((type.payload_schema.required ?? []) as string[]);
    const names = Object.keys(properties);
    if (names.length === 0) out.push('The payload is empty: `{}`.', '');
    else {
      out.push('| payload field | type | |', '| --- | --- | --- |');
      for (const name of names) {
        const property = properties[name];
        const description = typeof property.description === 'string' ? property.description : '';
        const note = [required.has(name) ? '' : 'optional', description];
        out.push(`| \`${name}\` | ${typeOf(property)} | ${note.filter(Boolean).join('; ')} |`);
      }
      out.push('', '```json', JSON.stringify(type.example, null, 2), '```', '');
    }
  }
  return out.join('\n');
}

/** Rewrites the catalog section between the markers of `file` (docs/webhooks.md). */
export function writeEventCatalog(file: string): void {
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(CATALOG_BEGIN);
  const to = text.indexOf(CATALOG_END);
  if (from < 0 || to < from) throw new Error(`${file} has no event catalog markers`);
  writeFileSync(file, `${text.slice(0, from + CATALOG_BEGIN.length)}\n\n${renderEventCatalog()}\n${text.slice(to)}`);
}
