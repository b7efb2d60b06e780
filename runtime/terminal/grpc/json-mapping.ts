import protobuf from 'protobufjs';

/**
 * The proto3 JSON mapping (protobuf.dev/programming-guides/json) between the object form handlers
 * use (the .proto's field names, int64 as strings, enums by name, bytes as Buffers) and JSON:
 * lowerCamelCase names (either accepted on input), 64-bit integers as strings, enum names, bytes
 * as base64, and the well-known types in their own forms (Timestamp as RFC 3339, Duration as
 * "1.5s", wrappers as their value, Struct/Value/ListValue as JSON, FieldMask as a path list, Any
 * with "@type"). Every field is written, defaults included, so clients see complete objects.
 */
const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const WRAPPERS = new Set(['DoubleValue', 'FloatValue', 'Int64Value', 'UInt64Value', 'Int32Value', 'UInt32Value', 'BoolValue', 'StringValue', 'BytesValue']);

/** What the mapping asks of a type, worked out once per type (protobufjs builds fullName anew on every read): a client stream maps every message of its array. */
interface TypeFacts {
  wellKnown: string | undefined;
  /** Fields by their .proto and their JSON names. */
  byName: ReadonlyMap<string, protobuf.Field>;
}

const factsOfType = new WeakMap<protobuf.Type, TypeFacts>();

function factsOf(type: protobuf.Type): TypeFacts {
  let facts = factsOfType.get(type);
  if (facts === undefined) {
    const byName = new Map<string, protobuf.Field>();
    for (const field of type.fieldsArray) {
      byName.set(field.name, field);
      byName.set(field.options?.json_name ?? protobuf.util.camelCase(field.name), field);
    }
    facts = { wellKnown: type.fullName.startsWith('.google.protobuf.') ? type.name : undefined, byName };
    factsOfType.set(type, facts);
  }
  return facts;
}

const wellKnown = (type: protobuf.Type): string | undefined => factsOf(type).wellKnown;

type Plain = Record<string, unknown>;

export function toJson(type: protobuf.Type, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const message = value as Plain;
  switch (wellKnown(type)) {
    case 'Timestamp': {
      const ms = Number(message.seconds ?? 0) * 1000 + Math.floor(Number(message.nanos ?? 0) / 1e6);
      return new Date(ms).toISOString();
    }
    case 'Duration': {
      const seconds = Number(message.seconds ?? 0) + Number(message.nanos ?? 0) / 1e9;
      return `${Number(seconds.toFixed(9))}s`;
    }
    case 'Struct':
      return structToJson(message);
    case 'Value':
      return valueToJson(message);
    case 'ListValue':
      return ((message.values as Plain[] | undefined) ?? []).map(valueToJson);
    case 'FieldMask':
      return ((message.paths as string[] | undefined) ?? []).map((p) => p.split('.').map(protobuf.util.camelCase).join('.')).join(',');
    case 'Empty':
      return {};
    case 'Any':
      return anyToJson(type, message);
    default:
      if (WRAPPERS.has(wellKnown(type) ?? '')) return scalarToJson(type.fields.value as protobuf.Field, message.value);
  }
  const out: Plain = {};
  for (const field of type.fieldsArray) {
    field.resolve();
    const item = message[field.name];
    if (field.partOf !== null && item === undefined) continue;
    out[field.options?.json_name ?? protobuf.util.camelCase(field.name)] = fieldToJson(field, item);
  }
  return out;
}

function fieldToJson(field: protobuf.Field, item: unknown): unknown {
  if (field.map) {
    const entries = Object.entries((item as Plain | undefined) ?? {});
    return Object.fromEntries(entries.map(([key, v]) => [key, elementToJson(field, v)]));
  }
  if (field.repeated) return ((item as unknown[] | undefined) ?? []).map((v) => elementToJson(field, v));
  return elementToJson(field, item);
}

function elementToJson(field: protobuf.Field, item: unknown): unknown {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type) return toJson(resolved, item);
  if (resolved instanceof protobuf.Enum) return typeof item === 'number' ? (resolved.valuesById[item] ?? item) : (item ?? Object.keys(resolved.values)[0]);
  return scalarToJson(field, item);
}

function scalarToJson(field: protobuf.Field, item: unknown): unknown {
  if (item === undefined || item === null) return null;
  if (INT64.has(field.type)) return String(item);
  if (field.type === 'bytes') return Buffer.isBuffer(item) ? item.toString('base64') : typeof item === 'string' ? item : Buffer.from(item as Uint8Array).toString('base64');
  if ((field.type === 'double' || field.type === 'float') && typeof item === 'number' && !Number.isFinite(item)) return Number.isNaN(item) ? 'NaN' : item > 0 ? 'Infinity' : '-Infinity';
  return item;
}

function valueToJson(value: Plain): unknown {
  const kind = value.kind as string | undefined;
  switch (kind) {
    case 'null_value':
      return null;
    case 'number_value':
      return value.number_value;
    case 'string_value':
      return value.string_value;
    case 'bool_value':
      return value.bool_value;
    case 'struct_value':
      return structToJson(value.struct_value as Plain);
    case 'list_value':
      return ((value.list_value as Plain | undefined)?.values as Plain[] | undefined)?.map(valueToJson) ?? [];
    default:
      return null;
  }
}

const structToJson = (struct: Plain): Plain => Object.fromEntries(Object.entries((struct.fields as Record<string, Plain> | undefined) ?? {}).map(([key, v]) => [key, valueToJson(v)]));

function anyToJson(type: protobuf.Type, any: Plain): unknown {
  const url = String(any.type_url ?? '');
  if (url === '') return {};
  const packed = type.root.lookup(url.slice(url.lastIndexOf('/') + 1));
  if (!(packed instanceof protobuf.Type)) return { '@type': url };
  const bytes = Buffer.isBuffer(any.value) ? any.value : Buffer.from(String(any.value ?? ''), 'base64');
  const object = packed.toObject(packed.decode(bytes), { longs: String, enums: String, bytes: Buffer, defaults: true, oneofs: true });
  const json = toJson(packed, object);
  return wellKnown(packed) !== undefined && !WRAPPERS.has(packed.name) && packed.name !== 'Empty' ? { '@type': url, value: json } : { '@type': url, ...(json as Plain) };
}

/** JSON into the object form (field names as in the .proto); throws TypeError naming what does not fit. */
export function fromJson(type: protobuf.Type, json: unknown, where = '$'): unknown {
  if (json === null || json === undefined) return undefined;
  switch (wellKnown(type)) {
    case 'Timestamp': {
      const ms = Date.parse(String(json));
      if (Number.isNaN(ms)) throw new TypeError(`${where}: ${JSON.stringify(json)} is not an RFC 3339 timestamp`);
      const fraction = /\.(\d+)/.exec(String(json))?.[1] ?? '';
      return { seconds: String(Math.floor(ms / 1000)), nanos: fraction === '' ? 0 : Number(fraction.padEnd(9, '0').slice(0, 9)) };
    }
    case 'Duration': {
      const m = /^(-?\d+)(?:\.(\d{1,9}))?s$/.exec(String(json));
      if (m === null) throw new TypeError(`${where}: ${JSON.stringify(json)} is not a duration such as "1.5s"`);
      return { seconds: m[1], nanos: Number((m[2] ?? '').padEnd(9, '0')) * (m[1].startsWith('-') ? -1 : 1) };
    }
    case 'Struct':
      return structFromJson(json, where);
    case 'Value':
      return valueFromJson(json);
    case 'ListValue':
      return { values: (json as unknown[]).map(valueFromJson) };
    case 'FieldMask':
      return { paths: String(json).split(',').filter(Boolean).map((p) => p.split('.').map((s) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).join('.')) };
    case 'Empty':
      return {};
    case 'Any':
      return anyFromJson(type, json as Plain, where);
    default:
      if (WRAPPERS.has(wellKnown(type) ?? '')) return { value: scalarFromJson(type.fields.value as protobuf.Field, json, where) };
  }
  if (typeof json !== 'object' || Array.isArray(json)) throw new TypeError(`${where}: expected an object for ${type.fullName.slice(1)}`);
  const { byName } = factsOf(type);
  const out: Plain = {};
  for (const [key, item] of Object.entries(json as Plain)) {
    const field = byName.get(key);
    if (field === undefined) throw new TypeError(`${where}.${key}: ${type.fullName.slice(1)} has no field ${key}`);
    field.resolve();
    if (item === null) continue;
    out[field.name] = field.map
      ? Object.fromEntries(Object.entries(item as Plain).map(([k, v]) => [k, elementFromJson(field, v, `${where}.${key}.${k}`)]))
      : field.repeated
        ? (Array.isArray(item) ? item : [item]).map((v, i) => elementFromJson(field, v, `${where}.${key}[${i}]`))
        : elementFromJson(field, item, `${where}.${key}`);
  }
  return out;
}

function elementFromJson(field: protobuf.Field, item: unknown, where: string): unknown {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type) return fromJson(resolved, item, where);
  if (resolved instanceof protobuf.Enum) {
    if (typeof item === 'number') return resolved.valuesById[item] ?? item;
    if (typeof item === 'string' && item in resolved.values) return item;
    throw new TypeError(`${where}: ${JSON.stringify(item)} is not a value of ${resolved.fullName.slice(1)}`);
  }
  return scalarFromJson(field, item, where);
}

function scalarFromJson(field: protobuf.Field, item: unknown, where: string): unknown {
  if (field.type === 'bytes') return Buffer.from(String(item), 'base64');
  if (INT64.has(field.type)) {
    if (!/^-?\d+$/.test(String(item))) throw new TypeError(`${where}: ${JSON.stringify(item)} is not an integer`);
    return String(item);
  }
  if (field.type === 'bool') return item === true || item === 'true';
  if (field.type === 'string') return String(item);
  const number = Number(item);
  if (Number.isNaN(number) && item !== 'NaN') throw new TypeError(`${where}: ${JSON.stringify(item)} is not a number`);
  return number;
}

function valueFromJson(json: unknown): Plain {
  if (json === null) return { null_value: 'NULL_VALUE', kind: 'null_value' };
  if (typeof json === 'number') return { number_value: json, kind: 'number_value' };
  if (typeof json === 'string') return { string_value: json, kind: 'string_value' };
  if (typeof json === 'boolean') return { bool_value: json, kind: 'bool_value' };
  if (Array.isArray(json)) return { list_value: { values: json.map(valueFromJson) }, kind: 'list_value' };
  return { struct_value: structFromJson(json, '$'), kind: 'struct_value' };
}

function structFromJson(json: unknown, where: string): Plain {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new TypeError(`${where}: expected an object for google.protobuf.Struct`);
  return { fields: Object.fromEntries(Object.entries(json).map(([key, v]) => [key, valueFromJson(v)])) };
}

function anyFromJson(type: protobuf.Type, json: Plain, where: string): Plain {
  const url = String(json['@type'] ?? '');
  const packed = type.root.lookup(url.slice(url.lastIndexOf('/') + 1));
  if (!(packed instanceof protobuf.Type)) throw new TypeError(`${where}: unknown @type ${JSON.stringify(url)}`);
  const rest: Plain = { ...json };
  delete rest['@type'];
  const object = fromJson(packed, wellKnown(packed) !== undefined && 'value' in rest ? rest.value : rest, where);
  return { type_url: url, value: Buffer.from(packed.encode(packed.fromObject(object as Plain)).finish()) };
}
