import type { Struct, Struct__Output } from './generated/google/protobuf/Struct.js';
import type { Value, Value__Output } from './generated/google/protobuf/Value.js';

// Free-form JSON (a webhook's state, an event's payload) travels as google.protobuf.Value and
// Struct, which grpcurl and other tools show as plain JSON. The daemon and the CLI convert here, so
// both ends print the same JSON as the HTTP API. No imports beyond types: the CLI loads this eagerly.

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

/** A decoded google.protobuf.Value as JSON; unset is null. */
export function fromValue(value: Value__Output | null | undefined): unknown {
  switch (value?.kind) {
    case 'numberValue':
      return value.numberValue;
    case 'stringValue':
      return value.stringValue;
    case 'boolValue':
      return value.boolValue;
    case 'structValue':
      return fromStruct(value.structValue);
    case 'listValue':
      return (value.listValue?.values ?? []).map(fromValue);
    default:
      return null;
  }
}

/** A decoded google.protobuf.Struct as a JSON object; unset is an empty object. */
export function fromStruct(struct: Struct__Output | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(struct?.fields ?? {}).map(([k, v]) => [k, fromValue(v)]));
}
