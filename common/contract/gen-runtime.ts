/**
 * The object (`g`) that generated fake-data code calls: the compiler emits the calls
 * (compiler/generate), common/generate implements them for the runtime and for the compiler's
 * own build-time samples.
 */
export interface GenRuntime
  extends NumberPrimitives, StringPrimitives, FormatPrimitives, PatternPrimitives, CollectionPrimitives, PluginPrimitives {}

/** A field whose schema names a data source plugin (`x-mock-data-source`, docs/plugins.md). */
export interface PluginPrimitives {
  /** The plugin action's answer to `input` (its arguments, JSON array text); `fallback()` where no plugins are loaded (the build's own samples, `mock data`). */
  plugin(plugin: string, action: string, input: string, fallback: () => unknown): unknown;
}

/** A specialised generator emitted at build time; `d` is the nesting depth of its value. */
export type Generate = (d: number) => unknown;

export interface NumberPrimitives {
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  /** Number in [min, max], rounded to cents when that stays in range. */
  float(min: number, max: number): number;
  /** k * step for some integer k in [kMin, kMax], exact enough for a `multipleOf: of` check (`of` defaults to step). */
  multiple(kMin: number, kMax: number, step: number, of?: number): number;
  bool(): boolean;
}

/** Free text and realistic values picked by property-name hints. */
export interface StringPrimitives {
  /** A single lower-case noun. */
  word(): string;
  /** A few words with min <= length <= max. */
  text(min: number, max: number): string;
  /** A sentence for description-like fields. */
  sentence(): string;
  /** A few capitalised words for title-like fields. */
  title(): string;
  /** Trims or pads (with letters) so that min <= length <= max. */
  fit(value: string, min: number, max: number): string;
  firstName(): string;
  lastName(): string;
  fullName(): string;
  username(): string;
  company(): string;
  city(): string;
  country(): string;
  countryCode(): string;
  state(): string;
  street(): string;
  postcode(): string;
  /** E.164 phone number. */
  phone(): string;
  currency(): string;
  locale(): string;
  timeZone(): string;
  mimeType(): string;
  /** Short lower-case alphanumeric identifier. */
  shortId(): string;
  slug(): string;
  /** 32 hex digits, for tokens, hashes and secrets. */
  token(): string;
  /** `#rrggbb`. */
  color(): string;
  /** Semantic version. */
  version(): string;
}

/** Strings in the shapes JSON Schema / OpenAPI `format`s (and common vendor ones) expect. */
export interface FormatPrimitives {
  /** RFC 4122 version 4 UUID. */
  uuid(): string;
  /** The current time, RFC 3339 in UTC. */
  dateTime(): string;
  /** A date within the last two years, YYYY-MM-DD. */
  date(): string;
  /** HH:MM:SSZ */
  time(): string;
  email(): string;
  url(): string;
  hostname(): string;
  ipv4(): string;
  ipv6(): string;
  cidr(): string;
  mac(): string;
  base64(): string;
  password(): string;
  /** ISO 8601 duration. */
  duration(): string;
  uriTemplate(): string;
  jsonPointer(): string;
  relativeJsonPointer(): string;
  regex(): string;
  /** Decimal digits without a leading zero, between min and max digits long. */
  digits(min: number, max: number): string;
  /** A decimal number as a string, e.g. for `format: decimal`. */
  decimal(): string;
}

/** A `pattern` compiled once at module load: the string generator and its linear-time test. */
export interface CompiledPattern {
  readonly generator: { gen(): string };
  readonly matches: (value: string) => boolean;
}

export interface PatternPrimitives {
  /** Compiles `source`; `max` caps unbounded repetitions (`*`, `+`, `{n,}`). */
  compilePattern(source: string, max: number): CompiledPattern;
  /** A string matching the pattern with min <= length <= max (best effort). */
  pattern(compiled: CompiledPattern, min: number, max: number): string;
  /** `value` when it matches the pattern and length bounds, otherwise a generated match. */
  patternOr(compiled: CompiledPattern, value: string, min: number, max: number): string;
}

export interface CollectionPrimitives {
  pick<T>(values: readonly T[]): T;
  /** Between min and max distinct elements of `values`. */
  sample<T>(values: readonly T[], min: number, max: number): T[];
  /** Between min and max items: those of `first` (when given), then more made by `item(d)`. */
  array(item: Generate, d: number, min: number, max: number, first?: unknown[]): unknown[];
  /** Like array(), but items are distinct by JSON value (fewer if `item` cannot vary enough). */
  uniqueArray(item: Generate, d: number, min: number, max: number, first?: unknown[]): unknown[];
  /**
   * An object with between min and max entries, values from `value(d)`, under distinct keys from
   * `key(d)` when given (fewer if it cannot vary enough), else under words.
   */
  record(value: Generate, d: number, min: number, max: number, key?: Generate): Record<string, unknown>;
  /** Sets a discriminator on an object-valued variant (leaves other values alone). */
  tag(value: unknown, property: string, tagValue: string): unknown;
  /** A fresh copy of a shared literal (non-scalar enum members). */
  clone<T>(value: T): T;
}
