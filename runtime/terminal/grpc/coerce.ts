import protobuf from 'protobufjs';
import type { Render, TemplateContext, TemplateRuntime } from '../../../common/contract/index.js';
import { TemplateSyntaxError, hasTemplate } from '../../../common/template/index.js';
import { templateRenderer } from '../../template/index.js';
import { WKT_ROOT, durationOf, fieldNamed, isWellKnown, listValueOf, structOf, timestampOf, valueOf, wrapperKind } from './generate.js';
import { RPC_ROOT, lookupType } from './status.js';

/**
 * Messages written in rules (`response`, `responses`, `script[].send`, error details) turned into
 * protobufjs' object form for their message type: every key must be a field (as the .proto spells
 * it, or its lowerCamelCase JSON name), every value fit its field; strings may hold template
 * tokens, rendered per call and coerced to the field's type ("5" into an int32 field becomes 5, an
 * ISO text into a Timestamp becomes seconds and nanos, a JSON object text into a message field
 * becomes that message). Well-known types take their proto3 JSON forms (Timestamp "2030-01-01T00:00:00Z",
 * Duration "1.5s", wrappers as their bare value, Struct/Value/ListValue as JSON, FieldMask "a,b",
 * Any as `{"@type": …, …fields}`). What is constant is converted once, at compile time.
 */

/** A message that does not fit its type: at compile time the rule is refused; at call time (a template's output) the call fails INTERNAL. */
export class CoerceError extends Error {}

/** A value for one call, or the constant it always is. */
export type Built = (t: TemplateRuntime, c: TemplateContext) => unknown;
export interface Compiled {
  constant: boolean;
  value?: unknown;
  build: Built;
}

const constant = (value: unknown): Compiled => ({ constant: true, value, build: () => value });

/** Where a template's text lands: as raw text. */
export function renderer(text: string, where: string): Render {
  try {
    return templateRenderer(text, 'none');
  } catch (error) {
    if (error instanceof TemplateSyntaxError) throw new CoerceError(`${where}: bad template ${JSON.stringify(text)}: ${error.message}`);
    throw error;
  }
}

export function containsTemplate(value: unknown): boolean {
  if (typeof value === 'string') return hasTemplate(value);
  if (Array.isArray(value)) return value.some(containsTemplate);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) return Object.values(value).some(containsTemplate);
  return false;
}

/** Any JSON with template strings: rendered per call, strings as text (error messages, details, trailers). */
export function compileJson(value: unknown, where: string): Compiled {
  if (!containsTemplate(value)) return constant(value);
  if (typeof value === 'string') {
    const render = renderer(value, where);
    return { constant: false, build: (t, c) => render(t, c) };
  }
  if (Array.isArray(value)) {
    const items = value.map((item, i) => compileJson(item, `${where}[${i}]`));
    return { constant: false, build: (t, c) => items.map((item) => item.build(t, c)) };
  }
  const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, compileJson(item, `${where}.${key}`)] as const);
  return {
    constant: false,
    build: (t, c) => {
      const out: Record<string, unknown> = {};
      for (const [key, item] of entries) out[key] = item.build(t, c);
      return out;
    },
  };
}

export class MessageCompiler {
  constructor(private readonly root: protobuf.Root) {}

  /** A message of `type` written in a rule; throws CoerceError naming `where` and the field. */
  message(type: protobuf.Type, value: unknown, where: string): Compiled {
    if (typeof value === 'string' && hasTemplate(value)) {
      const render = renderer(value, where);
      return { constant: false, build: (t, c) => this.fromText(type, render(t, c), where) };
    }
    if (!containsTemplate(value)) return constant(this.convertMessage(type, value, where));
    if (isWellKnown(type)) {
      const json = compileJson(value, where);
      return { constant: false, build: (t, c) => this.convertMessage(type, json.build(t, c), where) };
    }
    const object = this.plain(type, value, where);
    const fields: Array<[string, Compiled]> = [];
    for (const [key, item] of Object.entries(object)) {
      const field = this.field(type, key, where);
      if (field === undefined) continue;
      fields.push([field.name, this.fieldValue(field, item, `${where}.${key}`)]);
    }
    this.checkOneofs(type, fields.map(([name]) => name), where);
    return {
      constant: false,
      build: (t, c) => {
        const out: Record<string, unknown> = {};
        for (const [name, item] of fields) this.assign(type, out, name, item.build(t, c));
        return out;
      },
    };
  }

  private fieldValue(field: protobuf.Field, value: unknown, where: string): Compiled {
    if (!containsTemplate(value)) return constant(this.convertField(field, value, where));
    if (typeof value === 'string') {
      const render = renderer(value, where);
      if (field.map || field.repeated) return { constant: false, build: (t, c) => this.convertField(field, parseJson(render(t, c), where), where) };
      return { constant: false, build: (t, c) => this.singleFromText(field, render(t, c), where) };
    }
    if (field.map) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CoerceError(`${where}: a map field takes an object (got ${show(value)})`);
      const entries = Object.entries(value).map(([key, item]) => [this.mapKey(field as unknown as protobuf.MapField, key, where), this.single(field, item, `${where}.${key}`)] as const);
      return {
        constant: false,
        build: (t, c) => {
          const out: Record<string, unknown> = {};
          for (const [key, item] of entries) out[key] = item.build(t, c);
          return out;
        },
      };
    }
    if (field.repeated) {
      if (!Array.isArray(value)) throw new CoerceError(`${where}: a repeated field takes a list (got ${show(value)})`);
      const items = value.map((item, i) => this.single(field, item, `${where}[${i}]`));
      return { constant: false, build: (t, c) => items.map((item) => item.build(t, c)) };
    }
    return this.single(field, value, where);
  }

  private single(field: protobuf.Field, value: unknown, where: string): Compiled {
    if (!containsTemplate(value)) return constant(this.convertSingle(field, value, where));
    if (typeof value === 'string') {
      const render = renderer(value, where);
      return { constant: false, build: (t, c) => this.singleFromText(field, render(t, c), where) };
    }
    const resolved = field.resolve().resolvedType;
    if (resolved instanceof protobuf.Type) return this.message(resolved, value, where);
    throw new CoerceError(`${where}: ${field.type} takes a ${field.type === 'string' ? 'string' : 'scalar'} (got ${show(value)})`);
  }

  // ---- conversion of values (constants at compile time, templates' output at call time)

  convertMessage(type: protobuf.Type, value: unknown, where: string): Record<string, unknown> {
    if (isWellKnown(type)) return this.wellKnown(type, value, where);
    const object = this.plain(type, value, where);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(object)) {
      const field = this.field(type, key, where);
      if (field === undefined) continue;
      this.assign(type, out, field.name, this.convertField(field, item, `${where}.${key}`));
    }
    this.checkOneofs(type, Object.keys(out), where);
    return out;
  }

  private convertField(field: protobuf.Field, value: unknown, where: string): unknown {
    if (field.map) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CoerceError(`${where}: a map field takes an object (got ${show(value)})`);
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[this.mapKey(field as unknown as protobuf.MapField, key, where)] = this.convertSingle(field, item, `${where}.${key}`);
      return out;
    }
    if (field.repeated) {
      if (!Array.isArray(value)) throw new CoerceError(`${where}: a repeated field takes a list (got ${show(value)})`);
      return value.map((item, i) => this.convertSingle(field, item, `${where}[${i}]`));
    }
    return this.convertSingle(field, value, where);
  }

  private convertSingle(field: protobuf.Field, value: unknown, where: string): unknown {
    const resolved = field.resolve().resolvedType;
    if (resolved instanceof protobuf.Enum) return enumValue(resolved, value, where);
    if (resolved instanceof protobuf.Type) return this.convertMessage(resolved, value, where);
    return scalar(field.type, value, where);
  }

  /** A template's text as the value of one (non-repeated) field. */
  private singleFromText(field: protobuf.Field, text: string, where: string): unknown {
    const resolved = field.resolve().resolvedType;
    if (resolved instanceof protobuf.Enum) return enumValue(resolved, text, where);
    if (resolved instanceof protobuf.Type) return this.fromText(resolved, text, where);
    return scalar(field.type, text, where);
  }

  /** A template's text as a message: JSON, or for the well-known types their JSON text forms. */
  private fromText(type: protobuf.Type, text: string, where: string): Record<string, unknown> {
    const wrapped = wrapperKind(type);
    if (wrapped !== undefined) return this.wellKnown(type, text, where);
    switch (type.fullName) {
      case '.google.protobuf.Timestamp':
      case '.google.protobuf.Duration':
      case '.google.protobuf.FieldMask':
        if (!/^\s*\{/.test(text)) return this.wellKnown(type, text, where);
        break;
      case '.google.protobuf.Value':
        return this.wellKnown(type, jsonOrText(text), where);
      default:
        break;
    }
    return this.convertMessage(type, parseJson(text, where), where);
  }

  private wellKnown(type: protobuf.Type, value: unknown, where: string): Record<string, unknown> {
    const wrapped = wrapperKind(type);
    if (wrapped !== undefined) {
      const valueField = fieldNamed(type, 'value')!;
      if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && !Array.isArray(value)) {
        const inner = (value as Record<string, unknown>)[valueField.name] ?? (value as Record<string, unknown>).value;
        return { [valueField.name]: scalar(wrapped, inner, where) };
      }
      return { [valueField.name]: scalar(wrapped, value, where) };
    }
    switch (type.fullName) {
      case '.google.protobuf.Empty':
        if (value !== null && typeof value === 'object' && Object.keys(value).length === 0) return {};
        throw new CoerceError(`${where}: google.protobuf.Empty takes {} (got ${show(value)})`);
      case '.google.protobuf.Timestamp': {
        if (typeof value === 'string') {
          const ms = /^-?\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);
          if (Number.isNaN(ms)) throw new CoerceError(`${where}: ${show(value)} is not an RFC 3339 timestamp such as 2030-01-01T00:00:00Z`);
          return timestampOf(ms, type);
        }
        if (typeof value === 'number' && Number.isFinite(value)) return timestampOf(value, type);
        return this.secondsNanos(type, value, where);
      }
      case '.google.protobuf.Duration': {
        if (typeof value === 'string') {
          const match = /^\s*(-?\d+(?:\.\d{1,9})?)s\s*$/.exec(value);
          if (match === null) throw new CoerceError(`${where}: ${show(value)} is not a duration such as "1.5s"`);
          return durationOf(Number(match[1]) * 1000, type);
        }
        if (typeof value === 'number' && Number.isFinite(value)) return durationOf(value * 1000, type);
        return this.secondsNanos(type, value, where);
      }
      case '.google.protobuf.FieldMask': {
        const paths = fieldNamed(type, 'paths')!;
        if (typeof value === 'string') return { [paths.name]: value.split(',').map((p) => p.trim()).filter((p) => p !== '') };
        if (Array.isArray(value) && value.every((p) => typeof p === 'string')) return { [paths.name]: value };
        if (value !== null && typeof value === 'object' && Array.isArray((value as Record<string, unknown>)[paths.name])) return { [paths.name]: (value as Record<string, unknown>)[paths.name] };
        throw new CoerceError(`${where}: a FieldMask takes "a,b.c" or a list of paths (got ${show(value)})`);
      }
      case '.google.protobuf.Struct':
        if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CoerceError(`${where}: a Struct takes a JSON object (got ${show(value)})`);
        return structOf(type, value as Record<string, unknown>);
      case '.google.protobuf.Value':
        return valueOf(type, value);
      case '.google.protobuf.ListValue':
        if (!Array.isArray(value)) throw new CoerceError(`${where}: a ListValue takes a JSON list (got ${show(value)})`);
        return listValueOf(type, value);
      case '.google.protobuf.Any':
        return this.any(type, value, where);
      default:
        return this.convertMessage(type, value, where);
    }
  }

  private secondsNanos(type: protobuf.Type, value: unknown, where: string): Record<string, unknown> {
    const object = this.plain(type, value, where);
    const seconds = fieldNamed(type, 'seconds')!;
    const nanos = fieldNamed(type, 'nanos')!;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(object)) {
      const norm = key.replace(/_/g, '').toLowerCase();
      if (norm === 'seconds') out[seconds.name] = scalar('int64', item, `${where}.${key}`);
      else if (norm === 'nanos') out[nanos.name] = scalar('int32', item, `${where}.${key}`);
      else throw new CoerceError(`${where}: ${type.fullName.slice(1)} has no field ${key} (its fields: seconds, nanos)`);
    }
    return out;
  }

  /** `{"@type": "type.googleapis.com/pkg.Msg", …fields}` packed, or `{type_url, value}` (value base64) as it is. */
  any(type: protobuf.Type, value: unknown, where: string): Record<string, unknown> {
    const url = fieldNamed(type, 'typeurl')!;
    const bytes = fieldNamed(type, 'value')!;
    const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    if (object === undefined) throw new CoerceError(`${where}: an Any takes {"@type": "type.googleapis.com/<message>", …its fields} (got ${show(value)})`);
    if (Object.keys(object).length === 0) return {};
    const typeName = object['@type'];
    if (typeName === undefined) {
      const u = object[url.name] ?? object.typeUrl ?? object.type_url;
      const v = object[bytes.name] ?? object.value;
      if (typeof u !== 'string') throw new CoerceError(`${where}: an Any needs "@type" naming its message type`);
      return { [url.name]: u, [bytes.name]: scalar('bytes', v ?? '', `${where}.value`) };
    }
    const packed = this.pack(typeName, object, where);
    return { [url.name]: packed.type_url, [bytes.name]: Buffer.from(packed.value) };
  }

  /** A message named by `@type` (the user's .proto files, then google.rpc and google.protobuf), encoded. */
  pack(typeName: unknown, object: Record<string, unknown>, where: string): { type_url: string; value: Uint8Array } {
    if (typeof typeName !== 'string' || typeName === '') throw new CoerceError(`${where}: "@type" must name a message type, e.g. type.googleapis.com/google.rpc.ErrorInfo`);
    const name = typeName.slice(typeName.lastIndexOf('/') + 1);
    const type = lookupType(this.root, name) ?? lookupType(RPC_ROOT, name) ?? lookupType(WKT_ROOT, name);
    if (type === undefined) throw new CoerceError(`${where}: unknown "@type" ${JSON.stringify(typeName)}: not a message of the .proto files, of google.rpc (ErrorInfo, BadRequest, RetryInfo, …) or google.protobuf`);
    const { '@type': _, ...rest } = object;
    const compiler = (type.root as unknown) === this.root ? this : new MessageCompiler(type.root as unknown as protobuf.Root);
    const fields = isWellKnown(type) && wrapperKind(type) === undefined && 'value' in rest && Object.keys(rest).length === 1 && type.fullName !== '.google.protobuf.Any' ? rest.value : rest;
    const converted = compiler.convertMessage(type, fields, where);
    const url = typeName.includes('/') ? typeName : `type.googleapis.com/${name}`;
    return { type_url: url, value: type.encode(type.fromObject(converted)).finish() };
  }

  private plain(type: protobuf.Type, value: unknown, where: string): Record<string, unknown> {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) {
      throw new CoerceError(`${where}: ${type.fullName.slice(1)} takes an object of its fields (got ${show(value)})`);
    }
    return value as Record<string, unknown>;
  }

  /** A key of a written message: a field (its .proto name or JSON name), or a oneof's name (ignored: the set member says it). */
  private field(type: protobuf.Type, key: string, where: string): protobuf.Field | undefined {
    const field = type.fields[key] ?? type.fieldsArray.find((f) => camel(f.name) === key);
    if (field !== undefined) return field;
    if (type.oneofs?.[key] !== undefined) return undefined;
    const names = type.fieldsArray.map((f) => f.name);
    throw new CoerceError(`${where}: ${type.fullName.slice(1)} has no field ${JSON.stringify(key)} (its fields: ${names.length === 0 ? 'none' : names.join(', ')})`);
  }

  /** Sets a field, and a real oneof's virtual field to the member set (as proto-loader's `oneofs: true` does). */
  private assign(type: protobuf.Type, out: Record<string, unknown>, name: string, value: unknown): void {
    out[name] = value;
    const oneof = type.fields[name]?.partOf;
    if (oneof != null) out[oneof.name] = name;
  }

  private checkOneofs(type: protobuf.Type, names: readonly string[], where: string): void {
    for (const oneof of type.oneofsArray) {
      const set = oneof.fieldsArray.filter((f) => names.includes(f.name)).map((f) => f.name);
      if (set.length > 1) throw new CoerceError(`${where}: ${set.join(' and ')} are members of the oneof ${oneof.name}: set one`);
    }
  }

  private mapKey(field: protobuf.MapField, key: string, where: string): string {
    if (field.keyType === 'string') return key;
    if (field.keyType === 'bool') {
      if (key === 'true' || key === 'false') return key;
      throw new CoerceError(`${where}: map key ${JSON.stringify(key)} is not a bool`);
    }
    return String(scalar(field.keyType, key, `${where} key`));
  }
}


const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CoerceError(`${where}: the template gave ${show(text)}, not the JSON this field needs`);
  }
}

const RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

/** A JSON value (or a template's text) as a scalar of a protobuf kind, in proto-loader's object form. */
export function scalar(kind: string, value: unknown, where: string): unknown {
  const range = RANGES[kind];
  if (range !== undefined) {
    let n: bigint | undefined;
    if (typeof value === 'number' && Number.isInteger(value)) n = BigInt(value);
    else if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) n = BigInt(value.trim());
    else if (typeof value === 'string' && /^\s*-?\d+\.0*\s*$/.test(value)) n = BigInt(value.trim().replace(/\.0*$/, ''));
    if (n === undefined) throw new CoerceError(`${where}: ${show(value)} is not an integer (${kind})`);
    if (n < range[0] || n > range[1]) throw new CoerceError(`${where}: ${n} is out of range for ${kind} (${range[0]} to ${range[1]})`);
    return kind.endsWith('64') ? n.toString() : Number(n);
  }
  switch (kind) {
    case 'double':
    case 'float': {
      let n: number | undefined;
      if (typeof value === 'number') n = value;
      else if (typeof value === 'string' && value.trim() !== '') {
        const text = value.trim();
        n = text === 'NaN' ? NaN : text === 'Infinity' ? Infinity : text === '-Infinity' ? -Infinity : Number(text);
        if (Number.isNaN(n) && text !== 'NaN') n = undefined;
      }
      if (n === undefined) throw new CoerceError(`${where}: ${show(value)} is not a number (${kind})`);
      return kind === 'float' ? Math.fround(n) : n;
    }
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === '1') return true;
      if (value === 'false' || value === '0' || value === '') return false;
      throw new CoerceError(`${where}: ${show(value)} is not a bool`);
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw new CoerceError(`${where}: ${show(value)} is not a string`);
    case 'bytes':
      if (value instanceof Uint8Array) return Buffer.from(value);
      if (typeof value === 'string') {
        if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(value.trim())) throw new CoerceError(`${where}: bytes are written as base64 (got ${show(value)})`);
        return Buffer.from(value.trim(), 'base64');
      }
      if (Array.isArray(value) && value.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) return Buffer.from(value as number[]);
      throw new CoerceError(`${where}: bytes are written as base64 text (got ${show(value)})`);
    default:
      throw new CoerceError(`${where}: unknown protobuf type ${kind}`);
  }
}

/** An enum value by name or number; its name when it has one. */
export function enumValue(type: protobuf.Enum, value: unknown, where: string): string | number {
  if (typeof value === 'string' && Object.hasOwn(type.values, value)) return value;
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : undefined;
  if (number !== undefined && Number.isInteger(number)) return type.valuesById[number] ?? number;
  throw new CoerceError(`${where}: ${show(value)} is not a value of ${type.fullName.slice(1)} (${Object.keys(type.values).join(', ')})`);
}

export function show(value: unknown): string {
  const shown = value instanceof Uint8Array ? `<${value.length} bytes>` : (JSON.stringify(value) ?? String(value));
  return shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
}
