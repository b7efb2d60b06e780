import protobuf from 'protobufjs';
import { booleanGen, dateKind, Fakes, floatGen, hashString, intGen, mix, stringGen, wordsOf, type Gen } from '../fake-data/index.js';

/**
 * Generated messages: every value is a function of a 32-bit hash that folds in (seed, method,
 * request, message index) and then each field's name on the way down, so a field's value never
 * depends on how many values came before it. The field-name heuristics (an `email` field an
 * address, `created_at` a past instant, `age` 18–90, `price` money) are the GraphQL engine's
 * (runtime/terminal/fake-data/), shared rather than copied.
 *
 * Output is protobufjs' object form as @grpc/proto-loader hands it to a handler with
 * `{ keepCase, longs: String, enums: String, bytes: Buffer, defaults, oneofs }`: 64-bit integers
 * as decimal strings, enums by name, bytes as Buffer, a set oneof also named by its virtual field.
 */

/** Generated messages nest at most this deep; a message type that recurses stops after its second appearance on the path. */
export const MAX_DEPTH = 6;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const UINT32_MAX = 2 ** 32 - 1;
const DAY = 86_400_000;

type FieldGen = (h: number, depth: number, path: readonly protobuf.Type[]) => unknown;

interface Member {
  name: string;
  /** hash of the name, folded in at generation */
  key: number;
  gen: FieldGen;
  /** the synthetic oneof of a proto3 optional field */
  synthetic?: string;
}

interface Plan {
  /** fields outside real oneofs */
  fields: Member[];
  /** real oneofs: one member set per message */
  oneofs: Array<{ name: string; key: number; members: Member[] }>;
}

const INT_KINDS = new Set(['int32', 'sint32', 'sfixed32', 'uint32', 'fixed32']);
const LONG_KINDS = new Set(['int64', 'sint64', 'sfixed64', 'uint64', 'fixed64']);
const UNSIGNED = new Set(['uint32', 'fixed32', 'uint64', 'fixed64']);
const SIGNED_ZIGZAG = new Set(['sint32', 'sfixed32', 'sint64', 'sfixed64']);

const WRAPPERS: Record<string, string> = {
  '.google.protobuf.DoubleValue': 'double',
  '.google.protobuf.FloatValue': 'float',
  '.google.protobuf.Int64Value': 'int64',
  '.google.protobuf.UInt64Value': 'uint64',
  '.google.protobuf.Int32Value': 'int32',
  '.google.protobuf.UInt32Value': 'uint32',
  '.google.protobuf.BoolValue': 'bool',
  '.google.protobuf.StringValue': 'string',
  '.google.protobuf.BytesValue': 'bytes',
};

/** The well-known types as protobufjs bundles them, for packing into Any. */
export const WKT_ROOT = (() => {
  const root = new protobuf.Root();
  for (const file of ['any', 'duration', 'timestamp', 'empty', 'struct', 'wrappers', 'field_mask']) {
    root.addJSON((protobuf.common.get(`google/protobuf/${file}.proto`) as protobuf.INamespace).nested!);
  }
  root.resolveAll();
  return root;
})();

const MASK_PATHS = ['name', 'display_name', 'description', 'update_time', 'labels', 'state', 'etag', 'config.enabled'];

/** A field of a type by its normalized name (`type_url`, `typeUrl` → typeurl): the root may keep the .proto's case or not. */
export function fieldNamed(type: protobuf.Type, normalized: string): protobuf.Field | undefined {
  for (const field of type.fieldsArray) if (field.name.replace(/_/g, '').toLowerCase() === normalized) return field;
  return undefined;
}

/** Whether a oneof is proto3's synthetic one around an `optional` field (then the field is an ordinary one). */
export function isSyntheticOneof(oneof: protobuf.OneOf): boolean {
  return oneof.fieldsArray.length === 1 && oneof.name.startsWith('_') && oneof.fieldsArray[0]!.options?.proto3_optional === true;
}

export class MessageGenerator {
  readonly fakes: Fakes;
  private readonly plans = new Map<protobuf.Type, Plan>();

  constructor(
    readonly seed: number,
    private readonly now: () => number,
  ) {
    this.fakes = new Fakes(seed, now);
  }

  /** A message of `type` from hash h. */
  message(type: protobuf.Type, h: number, depth = 0, path: readonly protobuf.Type[] = []): Record<string, unknown> {
    const special = this.wellKnown(type, '', h);
    if (special !== undefined) return special as Record<string, unknown>;
    const plan = this.plan(type);
    const inner = [...path, type];
    const out: Record<string, unknown> = {};
    for (const field of plan.fields) {
      const value = field.gen(mix(h, field.key), depth + 1, inner);
      if (value === undefined) continue;
      out[field.name] = value;
      // proto3 optional: proto-loader's `oneofs: true` names the synthetic oneof too
      if (field.synthetic !== undefined) out[field.synthetic] = field.name;
    }
    for (const oneof of plan.oneofs) {
      const oh = mix(h, oneof.key);
      const n = oneof.members.length;
      // a member that cannot be generated here (recursion) gives way to the next one
      for (let i = 0; i < n; i++) {
        const member = oneof.members[(oh + i) % n]!;
        const value = member.gen(mix(h, member.key), depth + 1, inner);
        if (value === undefined) continue;
        out[member.name] = value;
        out[oneof.name] = member.name;
        break;
      }
    }
    return out;
  }

  private plan(type: protobuf.Type): Plan {
    let plan = this.plans.get(type);
    if (plan !== undefined) return plan;
    type.resolveAll();
    plan = { fields: [], oneofs: [] };
    this.plans.set(type, plan);
    const inOneof = new Set<protobuf.Field>();
    for (const oneof of type.oneofsArray) {
      if (isSyntheticOneof(oneof)) continue;
      const members = oneof.fieldsArray.map((field) => {
        inOneof.add(field);
        return this.member(type, field);
      });
      plan.oneofs.push({ name: oneof.name, key: hashString(0x0e0f, oneof.name), members });
    }
    for (const field of type.fieldsArray) {
      if (inOneof.has(field)) continue;
      const member = this.member(type, field);
      if (field.partOf != null) member.synthetic = field.partOf.name;
      plan.fields.push(member);
    }
    return plan;
  }

  private member(parent: protobuf.Type, field: protobuf.Field): Member {
    return { name: field.name, key: hashString(0xf1e1d, field.name), gen: this.fieldGen(parent, field) };
  }

  private fieldGen(parent: protobuf.Type, field: protobuf.Field): FieldGen {
    field.resolve();
    if (field.map) {
      const mapField = field as unknown as protobuf.MapField;
      const keyGen = this.keyGen(mapField.keyType, field.name, parent.name);
      const valueGen = this.singleGen(parent, field);
      return (h, depth, path) => {
        const count = 1 + (h % 3);
        const out: Record<string, unknown> = {};
        for (let i = 0; i < count; i++) {
          const ih = mix(h, i + 1);
          let key = String(keyGen(ih));
          if (Object.hasOwn(out, key)) key = mapField.keyType === 'bool' ? key : mapField.keyType === 'string' ? `${key}_${i}` : String(Number(key) + i);
          if (Object.hasOwn(out, key)) continue;
          const value = valueGen(mix(ih, 0x7a1), depth, path);
          if (value === undefined) return {};
          out[key] = value;
        }
        return out;
      };
    }
    if (field.repeated) {
      const enumType = field.resolvedType instanceof protobuf.Enum ? field.resolvedType : undefined;
      if (enumType !== undefined) {
        // consecutive values from a hashed start: a list shows several of them
        const names = enumNames(enumType);
        return (h) => {
          const count = Math.min(1 + (h % 3), names.length);
          const start = mix(h, 0xe) % names.length;
          return Array.from({ length: count }, (_, i) => names[(start + i) % names.length]);
        };
      }
      const item = this.singleGen(parent, field);
      return (h, depth, path) => {
        const count = 1 + (h % 3);
        const out: unknown[] = [];
        for (let i = 0; i < count; i++) {
          const value = item(mix(h, i + 1), depth, path);
          if (value === undefined) return [];
          out.push(value);
        }
        return out;
      };
    }
    return this.singleGen(parent, field);
  }

  /** One value of the field's type (an item of a list or a map's value for those). */
  private singleGen(parent: protobuf.Type, field: protobuf.Field): FieldGen {
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Enum) {
      const pick = this.fakes.pick(enumNames(resolved));
      return (h) => pick(h);
    }
    if (resolved instanceof protobuf.Type) {
      const type = resolved;
      return (h, depth, path) => {
        if (isWellKnown(type)) return this.wellKnown(type, field.name, h);
        if (depth > MAX_DEPTH) return undefined;
        let seen = 0;
        for (const t of path) if (t === type) seen++;
        if (seen >= 2) return undefined;
        return this.message(type, h, depth, path);
      };
    }
    const scalar = this.scalarGen(field.type, field.name, parent.name);
    return (h) => scalar(h);
  }

  /** A scalar of a protobuf kind, by the field's name. */
  scalarGen(kind: string, name: string, parent: string): Gen {
    const leaf = { name, parent };
    const fakes = this.fakes;
    if (kind === 'string') return stringGen(fakes, leaf);
    if (kind === 'bool') return booleanGen(fakes, leaf);
    if (kind === 'double') return floatGen(fakes, leaf);
    if (kind === 'float') {
      const gen = floatGen(fakes, leaf);
      // what a float32 holds, so the value sent is the value received
      return (h) => Math.fround(Number(gen(h)));
    }
    if (kind === 'bytes') {
      return (h) => {
        const length = 4 + (h % 13);
        const bytes = Buffer.allocUnsafe(length);
        let x = h;
        for (let i = 0; i < length; i++) {
          x = mix(x, i);
          bytes[i] = x & 255;
        }
        return bytes;
      };
    }
    const words = wordsOf(name);
    const last = words.at(-1) ?? '';
    if (INT_KINDS.has(kind)) {
      // integer coordinates are E7 degrees (route_guide's Point, google.type.LatLng's kin)
      const e7 = last === 'latitude' || last === 'lat' ? 900_000_000 : last === 'longitude' || last === 'lng' || last === 'lon' ? 1_800_000_000 : 0;
      const base =
        e7 > 0 && !UNSIGNED.has(kind)
          ? fakes.number({ min: -e7, max: e7 })
          : SIGNED_ZIGZAG.has(kind) && !hinted(words)
            ? fakes.number({ min: -1000, max: 1000 })
            : intGen(fakes, leaf);
      const [lo, hi] = UNSIGNED.has(kind) ? [0, UINT32_MAX] : [INT32_MIN, INT32_MAX];
      return (h) => clamp(Number(base(h)), lo, hi);
    }
    if (LONG_KINDS.has(kind)) {
      const unsigned = UNSIGNED.has(kind);
      const now = this.now;
      let base: Gen;
      if (last === 'id' || last === 'ids') base = fakes.number({ min: 1_000_000, max: 9_000_000_000_000 });
      else if (dateKind(words, 'epochMillis') !== undefined && /^(ms|millis|milliseconds)$/.test(last)) base = (h) => Math.floor(now() / DAY) * DAY - (h % (365 * 86_400)) * 1000;
      else if (/^(ms|millis|milliseconds|nanos|ns|us|micros|bytes|size)$/.test(last)) base = fakes.number({ min: 1, max: 10_000_000 });
      else if (SIGNED_ZIGZAG.has(kind) && !hinted(words)) base = fakes.number({ min: -1_000_000, max: 1_000_000 });
      else base = intGen(fakes, leaf);
      return (h) => {
        const value = Math.trunc(Number(base(h)));
        return String(unsigned && value < 0 ? -value : value);
      };
    }
    throw new Error(`no generator for the protobuf type ${kind}`);
  }

  private keyGen(kind: string, name: string, parent: string): Gen {
    if (kind === 'string') {
      const words = wordsOf(name);
      // `rpcs_by_peer` → peer names; `labels` → words
      const by = words.indexOf('by');
      const subject = by >= 0 && by < words.length - 1 ? words.slice(by + 1).join('_') : 'key';
      return this.scalarGen('string', subject === 'key' ? 'word' : subject === 'method' ? 'path' : `${subject}_name`, parent);
    }
    if (kind === 'bool') return (h) => (h & 1) === 1;
    return this.scalarGen(kind, `${name}_key`, parent);
  }

  /** Values of the well-known types, realistic rather than generic; undefined for other types. */
  wellKnown(type: protobuf.Type, fieldName: string, h: number): unknown {
    const name = type.fullName;
    if (!name.startsWith('.google.protobuf.')) return undefined;
    const wrapped = WRAPPERS[name];
    if (wrapped !== undefined) {
      const valueField = fieldNamed(type, 'value');
      return valueField === undefined ? {} : { [valueField.name]: this.scalarGen(wrapped, fieldName, '')(h) };
    }
    switch (name) {
      case '.google.protobuf.Empty':
        return {};
      case '.google.protobuf.Timestamp':
        return timestampOf(this.instant(fieldName, h), type);
      case '.google.protobuf.Duration': {
        const ms = 1000 * (1 + (h % 3600)) + (((h >>> 12) & 1) === 1 ? ((h >>> 16) % 1000) : 0);
        return durationOf(ms, type);
      }
      case '.google.protobuf.FieldMask': {
        const paths = fieldNamed(type, 'paths');
        const count = 1 + (h % 2);
        const start = mix(h, 3) % MASK_PATHS.length;
        return paths === undefined ? {} : { [paths.name]: Array.from({ length: count }, (_, i) => MASK_PATHS[(start + i * 3) % MASK_PATHS.length]) };
      }
      case '.google.protobuf.Struct':
        return this.struct(type, h);
      case '.google.protobuf.Value':
        return this.structValue(type, this.jsonValue(h, 0));
      case '.google.protobuf.ListValue':
        return this.listValue(type, [this.jsonValue(mix(h, 1), 1), this.jsonValue(mix(h, 2), 1)]);
      case '.google.protobuf.Any':
        return this.any(type, fieldName, h);
      default:
        return undefined;
    }
  }

  /** An instant near the virtual clock: by the field's name past (`created_at`), recent (`updated_at`) or future (`expire_time`). */
  private instant(fieldName: string, h: number): number {
    const words = wordsOf(fieldName);
    const suffixed = dateKind([...words, 'at'], 'datetime');
    // a date-like name decides; else only words saying future (`expire`, `deadline`) or recent (`updated`); else the past week
    const kind = dateKind(words, 'datetime') ?? (suffixed === 'futureDateTime' || suffixed === 'recentDateTime' ? suffixed : 'recentDateTime');
    const iso = String(this.fakes.gen(kind)(h));
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? this.now() : ms + ((h >>> 3) % 1000);
  }

  private struct(type: protobuf.Type, h: number): Record<string, unknown> {
    const words = this.fakes.gen('word');
    const json: Record<string, unknown> = {};
    const count = 1 + (h % 3);
    for (let i = 0; i < count; i++) {
      const ih = mix(h, i + 1);
      json[String(words(ih))] = this.jsonValue(mix(ih, 2), 1);
    }
    return structOf(type, json);
  }

  private jsonValue(h: number, depth: number): unknown {
    switch (h % (depth === 0 ? 6 : 4)) {
      case 0:
        return String(this.fakes.gen('words')(mix(h, 1)));
      case 1:
        return Math.round(unit(mix(h, 2)) * 100_000) / 100;
      case 2:
        return (h & 16) === 16;
      case 3:
        return mix(h, 3) % 7 === 0 ? null : String(this.fakes.gen('word')(mix(h, 4)));
      case 4:
        return { id: mix(h, 5) % 10000, name: String(this.fakes.gen('thingName')(mix(h, 6))) };
      default:
        return [String(this.fakes.gen('word')(mix(h, 7))), mix(h, 8) % 100];
    }
  }

  private structValue(type: protobuf.Type, json: unknown): Record<string, unknown> {
    return valueOf(type, json);
  }

  private listValue(type: protobuf.Type, items: unknown[]): Record<string, unknown> {
    return listValueOf(type, items);
  }

  /** A small packed message (a StringValue or a Timestamp) or, one time in four, an empty Any. */
  private any(type: protobuf.Type, fieldName: string, h: number): Record<string, unknown> {
    const url = fieldNamed(type, 'typeurl');
    const value = fieldNamed(type, 'value');
    if (url === undefined || value === undefined || h % 4 === 0) return {};
    if (h % 4 === 1) {
      const ts = WKT_ROOT.lookupType('google.protobuf.Timestamp');
      const ms = this.instant(fieldName, h);
      const encoded = ts.encode(ts.fromObject({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 })).finish();
      return { [url.name]: 'type.googleapis.com/google.protobuf.Timestamp', [value.name]: Buffer.from(encoded) };
    }
    const sv = WKT_ROOT.lookupType('google.protobuf.StringValue');
    const text = String(this.fakes.gen('words')(mix(h, 9)));
    return { [url.name]: 'type.googleapis.com/google.protobuf.StringValue', [value.name]: Buffer.from(sv.encode(sv.fromObject({ value: text })).finish()) };
  }
}

/** The enum's names a generated value takes: all of them, but a `*_UNSPECIFIED` zero value only when it is alone. */
export function enumNames(type: protobuf.Enum): string[] {
  const names = Object.keys(type.values);
  const meaningful = names.filter((name) => !(type.values[name] === 0 && /(^|_)UNSPECIFIED$/i.test(name)));
  return meaningful.length > 0 ? meaningful : names;
}

export function isWellKnown(type: protobuf.Type): boolean {
  return type.fullName.startsWith('.google.protobuf.') && (WRAPPERS[type.fullName] !== undefined || WELL_KNOWN.has(type.fullName));
}

const WELL_KNOWN = new Set([
  '.google.protobuf.Empty',
  '.google.protobuf.Timestamp',
  '.google.protobuf.Duration',
  '.google.protobuf.FieldMask',
  '.google.protobuf.Struct',
  '.google.protobuf.Value',
  '.google.protobuf.ListValue',
  '.google.protobuf.Any',
]);

export function wrapperKind(type: protobuf.Type): string | undefined {
  return WRAPPERS[type.fullName];
}

export function timestampOf(ms: number, type: protobuf.Type): Record<string, unknown> {
  const seconds = Math.floor(ms / 1000);
  return named(type, { seconds: String(seconds), nanos: Math.round((ms - seconds * 1000) * 1e6) });
}

export function durationOf(ms: number, type: protobuf.Type): Record<string, unknown> {
  const seconds = Math.trunc(ms / 1000);
  return named(type, { seconds: String(seconds), nanos: Math.round((ms - seconds * 1000) * 1e6) });
}

/** A JSON object as a google.protobuf.Struct in object form. */
export function structOf(type: protobuf.Type, json: Record<string, unknown>): Record<string, unknown> {
  const fields = fieldNamed(type, 'fields');
  const valueType = (fields?.resolve().resolvedType as protobuf.Type | null) ?? undefined;
  if (fields === undefined || valueType === undefined) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) out[key] = valueOf(valueType, value);
  return { [fields.name]: out };
}

/** A JSON value as a google.protobuf.Value in object form (the set member also named by the `kind` oneof). */
export function valueOf(type: protobuf.Type, json: unknown): Record<string, unknown> {
  const set = (member: string, value: unknown): Record<string, unknown> => {
    const field = fieldNamed(type, member);
    if (field === undefined) return {};
    const out: Record<string, unknown> = { [field.name]: value };
    if (field.partOf !== null) out[field.partOf.name] = field.name;
    return out;
  };
  const sub = (member: string): protobuf.Type => fieldNamed(type, member)!.resolve().resolvedType as protobuf.Type;
  if (json === null || json === undefined) return set('nullvalue', 'NULL_VALUE');
  if (typeof json === 'number') return set('numbervalue', json);
  if (typeof json === 'string') return set('stringvalue', json);
  if (typeof json === 'boolean') return set('boolvalue', json);
  if (Array.isArray(json)) return set('listvalue', listValueOf(sub('listvalue'), json));
  if (typeof json === 'object') return set('structvalue', structOf(sub('structvalue'), json as Record<string, unknown>));
  return set('stringvalue', String(json));
}

export function listValueOf(type: protobuf.Type, items: readonly unknown[]): Record<string, unknown> {
  const values = fieldNamed(type, 'values');
  if (values === undefined) return {};
  const valueType = values.resolve().resolvedType as protobuf.Type;
  return { [values.name]: items.map((item) => valueOf(valueType, item)) };
}

/** An object whose keys are normalized field names, re-keyed with the type's own field names. */
function named(type: protobuf.Type, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const field = fieldNamed(type, key);
    if (field !== undefined) out[field.name] = value;
  }
  return out;
}

function clamp(value: number, lo: number, hi: number): number {
  if (!Number.isFinite(value)) return lo < 0 ? 0 : lo;
  return Math.min(hi, Math.max(lo, Math.trunc(value)));
}

const unit = (h: number): number => h / 4294967296;

/** Whether a name says what its number is (`age`, `count`, `created_at`): then its range, signed or not. */
function hinted(words: readonly string[]): boolean {
  const last = words.at(-1) ?? '';
  return (
    dateKind(words, 'epochSeconds') !== undefined ||
    /^(age|year|month|day|hour|hours|minute|minutes|second|seconds|rating|stars|score|percent|percentage|progress|port|width|height|ms|millis|milliseconds|duration|priority|rank|order|position|index|level|sort|zip|zipcode|cents|count|total|quantity|qty|number|num|size|price|amount|cost|id|ids)$/.test(last)
  );
}
