import { FunctionExpressionType, JSONPathEnvironment, JSONPathError, JSONPathNodeList, Nothing, jsonpath, type FilterFunction, type JSONPathQuery, type JSONValue } from 'json-p3';
import { MAX_PATTERN_LENGTH, PatternError, compileLinear, type LinearPattern } from './linear-regex.js';

/**
 * JSONPath (RFC 9535) over JSON values, for conditions on request bodies and, through the same
 * functions, whatever else reads a value at a path (state machines' json_path extraction,
 * WebSocket waitFor, the conditional proxy).
 *
 * The library is json-p3 (MIT, no dependencies, RFC 9535 with the compliance test suite): it
 * compiles a path once into a tree of selectors and lets the environment replace the filter
 * functions. Filters are RFC 9535 expressions (comparisons, &&, ||, !, and the functions length,
 * count, value, match, search); nothing in a path is ever run as JavaScript. Chosen over
 * jsonpath-plus, whose filters are script expressions, and over jsonpath-rfc9535, which parses the
 * path again on every query and runs match()/search() on JavaScript's backtracking RegExp with no
 * way to replace them.
 *
 * Bounded, because paths come from the admin API and bodies from clients:
 * - a path has at most MAX_JSONPATH_LENGTH characters and is compiled once, when the condition is
 *   created; a malformed path throws PatternError;
 * - match() and search() run on the linear-time engine (re2js); a literal pattern is compiled with
 *   the path, so a bad one is refused then;
 * - an evaluation takes at most JSONPATH_BASE_STEPS steps, or JSONPATH_STEPS_PER_NODE per value in
 *   the document when that is more (one step: a selector applied to one node, one node selected,
 *   one value a comparison or function reads): linear in the document whatever the path, where
 *   nested filters and descendant segments (`$..[?@..[?@..x]]`) or repeated selectors
 *   (`$[0,0,0,0][0,0,0,0]…`) would otherwise grow with a power of it. Past the bound evaluation
 *   throws JsonPathLimitError; so does a descendant segment reaching below MAX_JSONPATH_DEPTH.
 */
export interface JsonPath {
  /** The path as written. */
  readonly source: string;
  /** The values selected, in document order. Throws JsonPathLimitError past the bound. */
  values(document: unknown): unknown[];
  /** Whether a selected value satisfies `accept`; evaluation stops at the first. Throws JsonPathLimitError past the bound. */
  some(document: unknown, accept: (value: unknown) => boolean): boolean;
}

export const MAX_JSONPATH_LENGTH = 256;
/** Steps any evaluation may take, whatever the size of the document. */
export const JSONPATH_BASE_STEPS = 10_000;
/** Steps an evaluation may take per value in the document, when that allows more than the base. */
export const JSONPATH_STEPS_PER_NODE = 8;
/** How deep a descendant segment (`..`) goes; as deep as the admin API lets JSON nest. */
export const MAX_JSONPATH_DEPTH = 64;

/** An evaluation stopped at the bound; the caller treats it as selecting nothing it can rely on. */
export class JsonPathLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathLimitError';
  }
}

const SYNTAX = 'RFC 9535 syntax, e.g. $.user.role, $.items[*].sku, $.items[?@.qty > 5], $..id';

/** Throws PatternError, in words that fit after "the JSONPath …", for a malformed or too long path. */
export function compileJsonPath(source: string): JsonPath {
  if (typeof source !== 'string') throw new PatternError(`must be a string such as "$.user.role" (got ${typeof source})`);
  if (source.length > MAX_JSONPATH_LENGTH) throw new PatternError(`is ${source.length} characters long; paths may have at most ${MAX_JSONPATH_LENGTH}`);
  if (!source.startsWith('$')) throw new PatternError(`must start with $, the document's root (${SYNTAX})`);
  let query: JSONPathQuery;
  try {
    query = ENVIRONMENT.compile(source);
  } catch (e) {
    if (e instanceof PatternError) throw e;
    if (!(e instanceof JSONPathError)) throw e;
    throw new PatternError(`is malformed: ${reason(e)} (${SYNTAX}; filters are comparisons and the functions length, count, value, match and search, never scripts)`);
  }
  instrument(query);
  return {
    source,
    values: (document) => metered(document, () => Array.from(query.lazyQuery(document as JSONValue), (node) => node.value)),
    some: (document, accept) =>
      metered(document, () => {
        for (const node of query.lazyQuery(document as JSONValue)) if (accept(node.value)) return true;
        return false;
      }),
  };
}

/** json-p3's message without the excerpt of the path it appends (`… ('$.a[':4)`). */
function reason(e: Error): string {
  const text = e.message.replace(/\s*\('(?:[^']|'(?!:\d+\)$))*':\d+\)$/, '');
  return text.replace(/^no such function '([^']*)'$/, "there is no function '$1' (filters may call length, count, value, match and search)");
}

// ---- the meter: one evaluation at a time (evaluation is synchronous)

interface Meter {
  left: number;
  document: unknown;
  grown: boolean;
}

let meter: Meter | undefined;

function metered<T>(document: unknown, run: () => T): T {
  const outer = meter;
  meter = { left: JSONPATH_BASE_STEPS, document, grown: false };
  try {
    return run();
  } catch (e) {
    if (e instanceof jsonpath.JSONPathRecursionLimitError) throw new JsonPathLimitError(`a descendant segment (..) reached more than ${MAX_JSONPATH_DEPTH} levels deep`);
    throw e;
  } finally {
    meter = outer;
  }
}

function charge(steps: number): void {
  if (meter === undefined) return;
  meter.left -= steps;
  if (meter.left < 0) grow(meter);
}

/** The base is spent: once, the document's own size adds its share; past that the evaluation stops. */
function grow(m: Meter): void {
  if (!m.grown) {
    m.grown = true;
    m.left += JSONPATH_STEPS_PER_NODE * countValues(m.document);
    if (m.left >= 0) return;
  }
  throw new JsonPathLimitError(`evaluating the path took more than ${JSONPATH_STEPS_PER_NODE} steps per value of the document`);
}

/** Every value in `document`, nested ones included; iterative, so any depth is fine. */
function countValues(document: unknown): number {
  let count = 0;
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    count++;
    if (value !== null && typeof value === 'object') {
      if (Array.isArray(value)) for (const item of value) stack.push(item);
      else for (const key in value) stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return count;
}

/** Members of an array or object (what a wildcard or filter iterates); 0 for anything else. */
function width(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  return 0;
}

/** A value as deep as it goes, charged one step per nested value (deep equality may read them all). */
function chargeDeep(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    charge(1);
    if (next !== null && typeof next === 'object') for (const child of Array.isArray(next) ? next : Object.values(next)) if (child !== null && typeof child === 'object') stack.push(child);
  }
}

// ---- instrumentation: the compiled tree charges the meter as it runs

type Node = { value: unknown };
type Selector = {
  resolve(node: Node): Node[];
  lazyResolve(node: Node): Generator<Node>;
};

const { selectors, expressions } = jsonpath;

function instrument(query: JSONPathQuery): void {
  for (const segment of query.segments) {
    for (const selector of segment.selectors) {
      const own = selector as unknown as Selector;
      const resolve = own.resolve.bind(own);
      const lazyResolve = own.lazyResolve.bind(own);
      const iterates = selector instanceof selectors.WildcardSelector || selector instanceof selectors.FilterSelector;
      own.resolve = (node) => {
        charge(1 + (iterates ? width(node.value) : 0));
        const found = resolve(node);
        charge(found.length);
        return found;
      };
      own.lazyResolve = function* (node) {
        charge(1 + (iterates ? width(node.value) : 0));
        for (const found of lazyResolve(node)) {
          charge(1);
          yield found;
        }
      };
      if (selector instanceof selectors.FilterSelector) instrumentExpression(selector.expression);
    }
  }
}

type Expression = InstanceType<typeof expressions.FilterExpression>;

function instrumentExpression(expression: Expression): void {
  if (expression instanceof expressions.LogicalExpression) instrumentExpression(expression.expression);
  else if (expression instanceof expressions.PrefixExpression) instrumentExpression(expression.right);
  else if (expression instanceof expressions.InfixExpression) {
    instrumentExpression(expression.left);
    instrumentExpression(expression.right);
    // a comparison of structured values is a deep equality
    if (!expression.logical) for (const operand of [expression.left, expression.right]) chargeResult(operand);
  } else if (expression instanceof expressions.FunctionExtension) expression.args.forEach(instrumentExpression);
  else if (expression instanceof expressions.FilterQuery) instrument(expression.path);
}

function chargeResult(operand: Expression): void {
  if (operand instanceof expressions.FilterExpressionLiteral) return;
  const own = operand as unknown as { evaluate(context: unknown): unknown };
  const evaluate = own.evaluate.bind(own);
  own.evaluate = (context) => {
    const result = evaluate(context);
    chargeDeep(result instanceof JSONPathNodeList ? (result.length === 1 ? result.nodes[0].value : undefined) : result);
    return result;
  };
}

// ---- the environment: RFC 9535 functions, the regular expressions in linear time

/**
 * I-Regexp (RFC 9485) in RE2's words: `.` is any character but a line break (\n or \r), where
 * RE2's excludes only \n; the rest is shared syntax. Escapes and character classes are copied.
 */
function fromIRegexp(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') out += pattern[++i];
    } else out += c === '.' ? '[^\\n\\r]' : c;
  }
  return out;
}

/** Compiled patterns kept at once, per function: literal ones from paths, and any read from documents. */
const PATTERN_CACHE_SIZE = 256;

/** match() (the whole string) or search() (any part) on the linear-time engine; a pattern it cannot run matches nothing. */
class LinearRegexFunction implements FilterFunction {
  readonly argTypes = [FunctionExpressionType.ValueType, FunctionExpressionType.ValueType];
  readonly returnType = FunctionExpressionType.LogicalType;
  /** Least recently used first out (a Map keeps insertion order; a hit is moved to the end). */
  private readonly cache = new Map<string, LinearPattern | null>();

  constructor(private readonly whole: boolean) {}

  /** Compiles a pattern the path writes as a literal, so a bad one is refused with the path; throws PatternError. */
  prepare(pattern: string): void {
    this.keep(pattern, compileLinear(fromIRegexp(pattern), { whole: this.whole }));
  }

  call(value: unknown, pattern: unknown): boolean {
    if (typeof value !== 'string' || typeof pattern !== 'string') return false;
    charge(1 + (value.length >> 4));
    let compiled = this.cache.get(pattern);
    if (compiled === undefined) {
      charge(pattern.length);
      try {
        compiled = pattern.length > MAX_PATTERN_LENGTH ? null : compileLinear(fromIRegexp(pattern), { whole: this.whole });
      } catch {
        compiled = null;
      }
    }
    this.keep(pattern, compiled);
    return compiled !== null && compiled.test(value);
  }

  private keep(pattern: string, compiled: LinearPattern | null): void {
    this.cache.delete(pattern);
    this.cache.set(pattern, compiled);
    if (this.cache.size > PATTERN_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
  }
}

/** length() charged for what it reads: an object's keys. */
class Length implements FilterFunction {
  readonly argTypes = [FunctionExpressionType.ValueType];
  readonly returnType = FunctionExpressionType.ValueType;
  call(value: unknown): unknown {
    if (typeof value === 'string') {
      charge(1 + (value.length >> 4));
      return [...value].length;
    }
    if (Array.isArray(value)) return value.length;
    if (value !== null && typeof value === 'object') {
      const n = width(value);
      charge(n);
      return n;
    }
    return Nothing;
  }
}

class BoundedEnvironment extends JSONPathEnvironment {
  constructor() {
    super({ strict: true, maxRecursionDepth: MAX_JSONPATH_DEPTH });
  }

  protected override setupFilterFunctions(): void {
    super.setupFilterFunctions();
    this.functionRegister.set('length', new Length());
    this.functionRegister.set('match', new LinearRegexFunction(true));
    this.functionRegister.set('search', new LinearRegexFunction(false));
  }

  /** Literal patterns of match() and search() are compiled with the path, so a bad one is refused at once. */
  override checkWellTypedness(token: Parameters<JSONPathEnvironment['checkWellTypedness']>[0], args: Parameters<JSONPathEnvironment['checkWellTypedness']>[1]) {
    const checked = super.checkWellTypedness(token, args);
    const fn = this.functionRegister.get(token.value);
    const pattern = args[1];
    if (fn instanceof LinearRegexFunction && pattern instanceof expressions.StringLiteral) {
      try {
        fn.prepare(pattern.value);
      } catch (e) {
        if (e instanceof PatternError) throw new PatternError(`calls ${token.value}() with the pattern ${JSON.stringify(pattern.value)}, which ${e.message}`);
        throw e;
      }
    }
    return checked;
  }
}

const ENVIRONMENT = new BoundedEnvironment();
