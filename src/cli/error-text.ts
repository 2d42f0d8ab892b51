import { CliError } from './client.js';

// The daemon's errors in the CLI's words: the API's field names become the flags that set them,
// the schema library's stock phrases become plain ones, and a refused choice suggests the closest
// ones instead of listing them all. The code and the details stay as the daemon sent them.

/** Where an API field came from in a command: its flag, and the value given when it is one to match. */
export type FieldSource = string | { flag: string; given: string | undefined };

export interface ErrorWording {
  /**
   * API field -> the flag (or argument) that set it. A key ending in `.*` stands for every field
   * under it that has no key of its own: `input.*` says `input.size` as `--input field size`.
   */
  fields?: Record<string, FieldSource>;
  /** This command's own message for an error it knows (e.g. a duplicate membership); undefined: the general one. */
  explain?: (error: CliError) => string | undefined;
}

/** Choices closer than this (edit distance) to a mistyped value are suggested... */
const CLOSE = 2;
/** ...at most this many. */
const MAX_SUGGESTIONS = 3;

/** Levenshtein distance: the fewest one-character edits from `a` to `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

/** The choices nearest `given`: those within a few edits, else the few nearest of all. */
export function closestChoices(given: string, choices: readonly string[]): string[] {
  const ranked = choices
    .map((choice) => ({ choice, distance: editDistance(given.toLowerCase(), choice.toLowerCase()) }))
    .sort((x, y) => x.distance - y.distance);
  const near = ranked.filter((r) => r.distance <= Math.max(CLOSE, Math.floor(given.length / 4)));
  return (near.length > 0 ? near : ranked).slice(0, MAX_SUGGESTIONS).map((r) => r.choice);
}

const orList = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);

/** The schema library's stock phrases (zod), said plainly; anything else is already plain. */
function plainReason(reason: string, given: string | undefined): string {
  let m: RegExpExecArray | null;
  if ((m = /^Invalid option: expected one of (.+)$/.exec(reason)) !== null) {
    const choices = [...m[1].matchAll(/"([^"]*)"/g)].map((c) => c[1]);
    if (given !== undefined) return `is unknown: did you mean ${orList(closestChoices(given, choices))}?`;
    return `must be one of ${choices.join(', ')}`;
  }
  if ((m = /^Too small: expected number to be >=(.+)$/.exec(reason)) !== null) return `must be at least ${m[1]}`;
  if ((m = /^Too small: expected number to be >(.+)$/.exec(reason)) !== null) return `must be more than ${m[1]}`;
  if ((m = /^Too big: expected number to be <=(.+)$/.exec(reason)) !== null) return `must be at most ${m[1]}`;
  if ((m = /^Too big: expected number to be <(.+)$/.exec(reason)) !== null) return `must be less than ${m[1]}`;
  if ((m = /^Too small: expected string to have >=(\d+) characters?$/.exec(reason)) !== null)
    return m[1] === '1' ? 'must not be empty' : `must be at least ${m[1]} characters`;
  if ((m = /^Too big: expected string to have <=(\d+) characters?$/.exec(reason)) !== null)
    return `must be at most ${m[1]} characters`;
  if ((m = /^Too big: expected array to have <=(\d+) items?$/.exec(reason)) !== null) return `takes at most ${m[1]}`;
  if (/^Invalid input: expected \w+, received undefined$/.test(reason)) return 'is required';
  if ((m = /^Invalid input: expected (\w+), received \w+$/.exec(reason)) !== null) return `must be a ${m[1]}`;
  if (/^Invalid UUID$/i.test(reason)) return 'must be a UUID';
  if (/^Invalid email/i.test(reason)) return 'must be an email address';
  if (/^Invalid URL$/i.test(reason)) return 'must be a URL';
  return reason;
}

/** `--flag must be ...` reads as a sentence; any other reason follows a colon. */
function fieldLine(name: string, reason: string): string {
  return /^(must|is|takes|needs|cannot) /.test(reason) ? `${name} ${reason}` : `${name}: ${reason}`;
}

function stringFields(details: Record<string, unknown> | undefined): Array<[string, string]> {
  const fields = details?.fields;
  if (fields === null || typeof fields !== 'object') return [];
  return Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

/** A field under a `<prefix>.*` key, as `<flag> field <rest>`; undefined when it has a key of its own or none covers it. */
function nestedField(field: string, sources: ErrorWording['fields']): string | undefined {
  if (sources === undefined || Object.hasOwn(sources, field)) return undefined;
  for (let cut = field.lastIndexOf('.'); cut > 0; cut = field.lastIndexOf('.', cut - 1)) {
    const source = sources[`${field.slice(0, cut)}.*`];
    if (source !== undefined) return `${typeof source === 'string' ? source : source.flag} field ${field.slice(cut + 1)}`;
  }
  return undefined;
}

/** The error as this command says it: every failing field named by its flag, in plain words. */
export function wordError(error: CliError, wording: ErrorWording = {}): CliError {
  const explained = wording.explain?.(error);
  if (explained !== undefined) return new CliError(error.code, explained, error.details);
  const fields = stringFields(error.details);
  if (fields.length === 0) return error;
  const lines = fields.map(([field, reason]) => {
    const nested = nestedField(field, wording.fields);
    if (nested !== undefined) return fieldLine(nested, plainReason(reason, undefined));
    const source = wording.fields?.[field];
    const flag = typeof source === 'string' ? source : source?.flag;
    const given = typeof source === 'object' ? source.given : undefined;
    const said = plainReason(reason, given);
    // A rule about the whole request (no one field): its reason alone.
    if (field.startsWith('(')) return said;
    return fieldLine(given === undefined ? (flag ?? field) : `${flag ?? field} ${given}`, said);
  });
  return new CliError(error.code, lines.join('; '), error.details);
}
