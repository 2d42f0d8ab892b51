// A definition's graph: needs resolved and checked (unknown nodes, cycles), templates parsed and
// checked against what a node may see, and templates rendered when a node runs.

import { validationFailed } from '../../errors.js';
import type { NodeBody } from './schemas.js';
import type { WorkflowNode } from './types.js';

/** `{{ input.topic }}`, `{{ nodes.draft.output.text }}`: a path, optional spaces inside the braces. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const PATH = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** A template reference: the run input, or a needed node's output. */
type Reference = { source: 'input'; path: string[] } | { source: 'node'; node: string; path: string[] };

function parseReference(text: string): Reference | string {
  if (!PATH.test(text)) return `"{{${text}}}" is not a reference: use {{input.<field>}} or {{nodes.<key>.output...}}`;
  const [head, ...rest] = text.split('.');
  if (head === 'input') return { source: 'input', path: rest };
  if (head === 'nodes' && rest.length >= 2 && rest[1] === 'output') return { source: 'node', node: rest[0], path: rest.slice(2) };
  return `"{{${text}}}" is not a reference: use {{input.<field>}} or {{nodes.<key>.output...}}`;
}

/** Every template string inside a node's input (deep), with where it sits. */
function* templateStrings(value: unknown, at: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [at, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* templateStrings(v, `${at}[${i}]`);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) yield* templateStrings(v, `${at}.${k}`);
}

function referencesIn(template: string): (Reference | string)[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => parseReference(m[1]));
}

/**
 * The nodes as stored, or 422 naming each failing node: a node `needs` the one before unless it
 * says otherwise; keys are unique; needs name earlier-or-later nodes of this definition, never
 * itself, without cycles; a provider node has a modality, a wait node none; a template reads the
 * run input or the output of a node it needs (directly or through others).
 */
export function resolveNodes(bodies: NodeBody[]): WorkflowNode[] {
  const fields: Record<string, string> = {};
  const fail = (i: number, field: string, reason: string) => (fields[`nodes[${i}].${field}`] ??= reason);
  const index = new Map<string, number>();
  bodies.forEach((b, i) => {
    if (index.has(b.key)) fail(i, 'key', `node ${b.key} is defined twice`);
    else index.set(b.key, i);
  });
  const nodes: WorkflowNode[] = bodies.map((b, i) => ({
    key: b.key,
    kind: b.kind,
    modality: b.modality ?? null,
    tier: b.tier ?? null,
    model: b.model ?? null,
    input: b.input ?? {},
    params: b.params ?? {},
    needs: [...new Set(b.needs ?? (i === 0 ? [] : [bodies[i - 1].key]))],
  }));
  nodes.forEach((n, i) => {
    if (n.kind === 'provider' && n.modality === null) fail(i, 'modality', `node ${n.key}: a provider node needs a modality`);
    if (n.kind === 'wait' && (n.modality !== null || n.tier !== null || n.model !== null))
      fail(i, 'kind', `node ${n.key}: a wait node takes no modality, tier or model`);
    for (const need of n.needs) {
      if (need === n.key) fail(i, 'needs', `node ${n.key} needs itself`);
      else if (!index.has(need)) fail(i, 'needs', `node ${n.key} needs ${need}, which is not a node of this workflow`);
    }
  });
  const cycle = findCycle(nodes);
  if (cycle !== undefined) fail(index.get(cycle[0])!, 'needs', `nodes ${cycle.join(' -> ')} form a cycle`);
  if (Object.keys(fields).length === 0) {
    const upstream = ancestors(nodes);
    nodes.forEach((n, i) => {
      for (const [at, template] of templateStrings(n.input, 'input'))
        for (const ref of referencesIn(template)) {
          if (typeof ref === 'string') fail(i, at, `node ${n.key}: ${ref}`);
          else if (ref.source === 'node' && !index.has(ref.node))
            fail(i, at, `node ${n.key} reads node ${ref.node}, which is not a node of this workflow`);
          else if (ref.source === 'node' && !upstream.get(n.key)!.has(ref.node))
            fail(i, at, `node ${n.key} reads node ${ref.node} without needing it (add it to needs)`);
        }
    });
  }
  if (Object.keys(fields).length > 0) throw validationFailed(fields, `invalid workflow: ${Object.values(fields)[0]}`);
  return nodes;
}

/** A cycle through `needs`, as node keys (first repeated last), if there is one. */
function findCycle(nodes: WorkflowNode[]): string[] | undefined {
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (key: string): string[] | undefined => {
    if (state.get(key) === 'done') return undefined;
    if (state.get(key) === 'open') return [...path.slice(path.indexOf(key)), key];
    state.set(key, 'open');
    path.push(key);
    for (const need of byKey.get(key)?.needs ?? []) {
      if (!byKey.has(need)) continue;
      const found = visit(need);
      if (found !== undefined) return found;
    }
    path.pop();
    state.set(key, 'done');
    return undefined;
  };
  for (const n of nodes) {
    const found = visit(n.key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Each node's transitive needs (the graph has no cycle). */
function ancestors(nodes: WorkflowNode[]): Map<string, Set<string>> {
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const memo = new Map<string, Set<string>>();
  const of = (key: string): Set<string> => {
    const known = memo.get(key);
    if (known !== undefined) return known;
    const all = new Set<string>();
    for (const need of byKey.get(key)!.needs) {
      all.add(need);
      for (const a of of(need)) all.add(a);
    }
    memo.set(key, all);
    return all;
  };
  for (const n of nodes) of(n.key);
  return memo;
}

/** What templates read: the run input and the outputs of completed nodes. */
export interface TemplateScope {
  input: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/** A template that reads what is not there when the node runs (an input field the run lacks). */
export class TemplateError extends Error {
  override name = 'TemplateError';
}

function lookup(scope: TemplateScope, ref: Reference): unknown {
  let value: unknown = ref.source === 'input' ? scope.input : scope.outputs[ref.node];
  for (const part of ref.path) {
    if (value === null || typeof value !== 'object' || !(part in value)) {
      const name = ref.source === 'input' ? ['input', ...ref.path] : ['nodes', ref.node, 'output', ...ref.path];
      throw new TemplateError(`{{${name.join('.')}}} has no value`);
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** How much a rendering may still write: characters, counted as it goes (keys, text, values). */
interface RenderBudget {
  left: number;
  readonly max: number;
  /** A value's size once measured, by placeholder text (a value used 2,000 times is measured once). */
  readonly sizes: Map<string, number>;
}

function spend(budget: RenderBudget, characters: number): void {
  budget.left -= characters;
  if (budget.left < 0)
    throw new TemplateError(`the input, its templates filled in, is over ${budget.max} characters (at most ${budget.max})`);
}

/**
 * A node's input with its templates filled in: a string that is one placeholder alone takes the
 * value as it is (an object, a number); placeholders inside text are written into it (non-strings
 * as JSON). What it writes is counted as it goes, and past `maxCharacters` it stops with a
 * TemplateError: a small definition that repeats a large value never builds the large result.
 */
export function renderInput(value: unknown, scope: TemplateScope, maxCharacters = Number.POSITIVE_INFINITY): unknown {
  return renderWithin(value, scope, { left: maxCharacters, max: maxCharacters, sizes: new Map() });
}

function renderWithin(value: unknown, scope: TemplateScope, budget: RenderBudget): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(value);
    if (whole !== null) {
      const found = lookup(scope, parseReference(whole[1]) as Reference);
      let size = budget.sizes.get(whole[1]);
      if (size === undefined) budget.sizes.set(whole[1], (size = sizeOf(found)));
      spend(budget, size);
      return found;
    }
    let last = 0;
    let out = '';
    for (const match of value.matchAll(PLACEHOLDER)) {
      const literal = value.slice(last, match.index);
      spend(budget, literal.length);
      const v = lookup(scope, parseReference(match[1]) as Reference);
      const written = typeof v === 'string' ? v : JSON.stringify(v);
      spend(budget, written.length);
      out += literal + written;
      last = match.index + match[0].length;
    }
    spend(budget, value.length - last);
    return out + value.slice(last);
  }
  if (Array.isArray(value)) return value.map((v) => renderWithin(v, scope, budget));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        spend(budget, k.length);
        return [k, renderWithin(v, scope, budget)];
      }),
    );
  return value;
}

/** A value's size as written into a request: a string's length, else its JSON's. */
function sizeOf(value: unknown): number {
  return typeof value === 'string' ? value.length : (JSON.stringify(value) ?? '').length;
}
