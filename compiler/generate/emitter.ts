/**
 * Turns schemas into specialised generator code. Every object, array item, record value and
 * random union becomes a named `function gen_X(d)`, where `d` is the nesting depth of the value
 * it makes; depth bounds recursion without any schema interpretation at request time.
 * The parts by role: the code written (generated-code.ts), objects (objects.ts), arrays
 * (arrays.ts), unions (union-values.ts), enums and constants (choices.ts); the emitter dispatches
 * a schema to them and makes the definitions' and items' functions.
 */
import type { JsonSchema } from '../ir/types.js';
import type { GenMode, GeneratorEmitter, Language } from './api.js';
import { arrayValue } from './arrays.js';
import { enumChoices, enumValue } from './choices.js';
import { OPTIONAL_DEPTH, type EmitContext, type Site } from './emit-context.js';
import { GeneratedCode } from './generated-code.js';
import { SchemaGraph } from './graph.js';
import { booleanExpr, integerExpr, numberExpr } from './numbers.js';
import { ObjectEmitter } from './objects.js';
import { SchemaResolver } from './resolve.js';
import { allowsNull, inferType, isFalseSchema, isPureRef, isSchemaObject, isUnion, shapeKey, withoutKeys } from './schema.js';
import { DATA_SOURCE, dataSourceOf } from '../ir/index.js';
import { below, choose, deeper, type Depth, depthText, literal, PARAMETER, TOP } from './source.js';
import { SchemaJudge } from './judge.js';
import { loadGenerators, sample } from './samples.js';
import { stringExpr } from './strings.js';
import { UnionEmitter, type Fork, type Shared } from './union-values.js';
import { unionConstants, type UnionPlan, type Variant } from './unions.js';

/** Recursive generators give up here: only schemas with no finite instance get that far. */
const GUARD_DEPTH = 16;
const MAX_INLINE_NESTING = 200;

export class Emitter implements GeneratorEmitter, EmitContext, Fork {
  readonly resolver: SchemaResolver;
  readonly code = new GeneratedCode();
  private readonly graph: SchemaGraph;
  private readonly objects: ObjectEmitter;
  private readonly unions: UnionEmitter;
  private readonly judge: SchemaJudge;
  private nesting = 0;

  constructor(definitions: Record<string, JsonSchema>, shared?: Shared) {
    this.resolver = new SchemaResolver(definitions);
    this.graph = new SchemaGraph(definitions);
    const common = shared ?? { judge: new SchemaJudge(definitions), plans: new Map() };
    this.judge = common.judge;
    this.objects = new ObjectEmitter(this);
    this.unions = new UnionEmitter(this, common, () => new Emitter(definitions, common));
  }

  expression(schema: JsonSchema, mode: GenMode, hint = 'inline'): string {
    const expr = this.value(schema, { mode, depth: TOP, hint, unique: false });
    // An object literal would read as a block after `=>` or at the start of a statement.
    return expr.startsWith('{') ? `(${expr})` : expr;
  }

  declarations(language: Language = 'js'): string {
    return this.code.declarations(language);
  }

  definitionCall(name: string, mode: GenMode): string | undefined {
    return this.code.functionName(this.definitionKey(name, mode))?.concat('(0)');
  }

  leftOut(): string[] {
    return this.objects.leftOut();
  }

  sample(expressions: readonly string[], count: number): unknown[][] {
    const generators = loadGenerators(this.declarations(), expressions.map((expression) => `(d) => ${expression}`));
    return generators.map((generate) => sample(generate, count));
  }

  helperFunction(key: string, stem: string, build: () => string[]): string {
    return this.code.helperFunction(key, stem, build);
  }

  variantValue(variant: Variant, site: Site): string {
    return this.unions.variantValue(variant, site);
  }

  unionPlan(s: JsonSchema, mode: GenMode): UnionPlan {
    return this.unions.unionPlan(s, mode);
  }

  accepts(schema: unknown, mode: GenMode, value: unknown): boolean {
    return this.judge.accepts(schema, mode, value);
  }

  value(schema: unknown, site: Site): string {
    // Inline nesting is finite for any schema the merge rules accept; this stops a pathological
    // one from overflowing the stack.
    if (this.nesting > MAX_INLINE_NESTING) return 'null';
    this.nesting++;
    try {
      return this.valueOf(schema, site);
    } finally {
      this.nesting--;
    }
  }

  private valueOf(schema: unknown, site: Site): string {
    if (isFalseSchema(schema)) return 'null';
    if (!isSchemaObject(schema)) return 'g.word()';
    const source = dataSourceOf(schema);
    if (source !== undefined) {
      const own = this.valueOf(withoutKeys(schema, [DATA_SOURCE]), site);
      return `g.plugin(${JSON.stringify(source.plugin)}, ${JSON.stringify(source.action)}, ${JSON.stringify(JSON.stringify(source.args))}, () => ${own.startsWith('{') ? `(${own})` : own})`;
    }
    const target = this.resolver.target(schema);
    if (target !== undefined) return this.call(this.definitionFunction(target, site.mode), site.depth);
    // A reference to a definition that does not exist constrains nothing.
    if (isPureRef(schema)) return 'g.word()';
    const s = this.resolver.normalize(schema);
    // const/enum beside a union pin the value more tightly than any variant would.
    if ('const' in s) return literal(s.const);
    if (Array.isArray(s.enum) && s.enum.length > 0) return enumValue(this.code, enumChoices(s)!, site);
    if (isUnion(s)) {
      const constants = unionConstants(s, this.resolver);
      return constants ? enumValue(this.code, constants, site) : this.unions.unionValue(s, this.unionPlan(s, site.mode), site);
    }
    const orNull = (expr: string) => (allowsNull(s) ? choose(below(site.depth, OPTIONAL_DEPTH), expr, 'null') : expr);
    const useExample = !site.unique;
    switch (inferType(s)) {
      case 'object':
        return orNull(this.call(this.objects.objectFunction(s, site), site.depth));
      case 'array':
        return orNull(arrayValue(this, s, site));
      case 'string':
        return stringExpr(s, { name: site.name, useExample, pattern: (source, max) => this.pattern(source, max, site.hint) });
      case 'integer':
        return integerExpr(s, site.name, useExample);
      case 'number':
        return numberExpr(s, site.name, useExample);
      case 'boolean':
        return booleanExpr(s, useExample);
      case 'null':
        return 'null';
      default:
        return 'g.word()';
    }
  }

  body(schema: unknown, site: Site): string[] {
    if (!isSchemaObject(schema) || this.resolver.target(schema) !== undefined) {
      return [`return ${this.value(schema, site)};`];
    }
    const s = this.resolver.normalize(schema, site.definition);
    if (isUnion(s) && !('const' in s) && !Array.isArray(s.enum) && !unionConstants(s, this.resolver)) {
      const plan = this.unionPlan(s, site.mode);
      if (plan.variants.length > 1) return this.unions.unionSwitch(plan, site);
      return [`return ${this.unions.unionValue(s, plan, site)};`];
    }
    if (!('const' in s) && !Array.isArray(s.enum) && inferType(s) === 'object') {
      const stop = allowsNull(s) ? [`if (d >= ${OPTIONAL_DEPTH}) return null;`] : [];
      return [...stop, ...this.objects.objectBody(s, site)];
    }
    return [`return ${this.value(s, site)};`];
  }

  call(fn: string, depth: Depth): string {
    // A call at the caller's own depth would let alias chains (A = B, B = A) recurse forever.
    const at = depth.variable && depth.offset === 0 ? deeper(depth) : depth;
    return `${fn}(${depthText(at)})`;
  }

  private pattern(source: string, max: number, stem: string): string {
    return this.code.constant(JSON.stringify(['pattern', source, max]), 'pattern', stem, `g.compilePattern(${literal(source)}, ${max})`);
  }

  modeKey(schema: unknown, mode: GenMode): string {
    return this.graph.isModeSensitive(schema) ? mode : '';
  }

  private definitionKey(name: string, mode: GenMode): string {
    return JSON.stringify(['definition', this.graph.isDefinitionModeSensitive(name) ? mode : '', name]);
  }

  private definitionFunction(name: string, mode: GenMode): string {
    const sensitive = this.graph.isDefinitionModeSensitive(name);
    const stem = sensitive && mode === 'request' ? `${name}_request` : name;
    return this.code.helperFunction(this.definitionKey(name, mode), stem, () => {
      const schema = this.resolver.definitions[name];
      const site: Site = { mode, depth: PARAMETER, hint: name, name, unique: false, definition: name };
      const lines = this.body(schema, site);
      if (!this.graph.isRecursive(name)) return lines;
      return [`if (d > ${GUARD_DEPTH}) return ${minimal(this.resolver.view(schema, name))};`, ...lines];
    });
  }

  itemFunction(schema: unknown, site: Site, suffix: string): string {
    const target = isSchemaObject(schema) ? this.resolver.target(schema) : undefined;
    if (target !== undefined) return this.definitionFunction(target, site.mode);
    const hint = `${site.hint}_${suffix}`;
    const key = JSON.stringify(['item', this.modeKey(schema, site.mode), site.name ?? '', site.unique, shapeKey(schema ?? {})]);
    return this.code.helperFunction(key, hint, () => this.body(schema ?? {}, { ...site, depth: PARAMETER, hint, definition: undefined }));
  }
}

/** The smallest value of roughly the right shape, for generators cut off by the guard. */
function minimal(view: JsonSchema): string {
  if (allowsNull(view) || isUnion(view)) return 'null';
  switch (inferType(view)) {
    case 'object':
      return '{}';
    case 'array':
      return '[]';
    case 'string':
      return '""';
    case 'integer':
    case 'number':
      return '0';
    case 'boolean':
      return 'false';
    default:
      return 'null';
  }
}
