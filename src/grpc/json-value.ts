import type { Struct, Struct__Output } from './generated/google/protobuf/Struct.js';
import type { Value, Value__Output } from './generated/google/protobuf/Value.js';
import { MAX_JSON_DEPTH, tooDeep } from '../json-depth.js';

// Free-form JSON (a webhook's state, an event's payload) travels as google.protobuf.Value and
// Struct, which grpcurl and other tools show as plain JSON. The daemon and the CLI convert here, so
// both ends print the same JSON as the HTTP API. Few imports: the CLI loads this eagerly.

/** Any JSON value as a google.protobuf.Value (undefined, as in JSON, is null). */
export function toValue(json: unknown): Value {
  if (json === null || json === undefined) return { nullValue: 'NULL_VALUE' };
  switch (typeof json) {
    case 'number':
      return { numberValue: json };
    case 'string':
      return { stringValue: json };
    case 'boolean':
      return { boolValue: json };
    case 'object':
      return Array.isArray(json)
        ? { listValue: { values: json.map(toValue) } }
        : { structValue: toStruct(json as Record<string, unknown>) };
    default:
      throw new TypeError(`not a JSON value: ${typeof json}`);
  }
}

/** A JSON object as a google.protobuf.Struct; keys whose value is undefined are left out, as JSON does. */
export function toStruct(object: Record<string, unknown>): Struct {
  return {
    fields: Object.fromEntries(
      Object.entries(object)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, toValue(v)]),
    ),
  };
}

/** A decoded google.protobuf.Value as JSON; unset is null. Deeper than MAX_JSON_DEPTH is validation_failed. */
export function fromValue(value: Value__Output | null | undefined): unknown {
  return valueAt(value, 0);
}

/** A decoded google.protobuf.Struct as a JSON object; unset is an empty object. Depth bounded as fromValue. */
export function fromStruct(struct: Struct__Output | null | undefined): Record<string, unknown> {
  return structAt(struct, 1);
}

function valueAt(value: Value__Output | null | undefined, depth: number): unknown {
  switch (value?.kind) {
    case 'numberValue':
      return value.numberValue;
    case 'stringValue':
      return value.stringValue;
    case 'boolValue':
      return value.boolValue;
    case 'structValue':
      return structAt(value.structValue, depth + 1);
    case 'listValue':
      if (depth + 1 > MAX_JSON_DEPTH) throw tooDeep();
      return (value.listValue?.values ?? []).map((v) => valueAt(v, depth + 1));
    default:
      return null;
  }
}

function structAt(struct: Struct__Output | null | undefined, depth: number): Record<string, unknown> {
  if (depth > MAX_JSON_DEPTH) throw tooDeep();
  return Object.fromEntries(Object.entries(struct?.fields ?? {}).map(([k, v]) => [k, valueAt(v, depth)]));
}
