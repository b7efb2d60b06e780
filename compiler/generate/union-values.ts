import type { JsonSchema } from '../ir/types.js';
import type { GenMode } from './api.js';
import { OPTIONAL_DEPTH, type EmitContext, type Site } from './emit-context.js';
import type { SchemaJudge } from './judge.js';
import { loadGenerators, sample } from './samples.js';
import { inferType, shapeKey } from './schema.js';
import { below, choose, deeper, literal, PARAMETER } from './source.js';
import { vetUnion } from './union-vetting.js';
import { planUnion, type UnionPlan, type Variant } from './unions.js';

/** Values a union variant is tried out with at build time, at each of two depths. */
const SAMPLES = 8;

/** What an emitter shares with the emitters it starts to try union variants out. */
export interface Shared {
  readonly judge: SchemaJudge;
  /** Union plans by mode and shape; a union being vetted has its unvetted plan here meanwhile (for recursion). */
  readonly plans: Map<string, UnionPlan>;
}

/** A fresh emitter sharing this one's judge and plans, in which a variant is tried out. */
export interface Fork {
  helperFunction(key: string, stem: string, build: () => string[]): string;
  variantValue(variant: Variant, site: Site): string;
  declarations(): string;
}

/** Union values: the variants planned once per shape and mode (vetted by sampling when unproven), chosen at build time or at random. */
export class UnionEmitter {
  constructor(
    private readonly cx: EmitContext,
    private readonly shared: Shared,
    private readonly fork: () => Fork,
  ) {}

  /** The variants of a union to generate: planned once per shape and mode, vetted by sampling when unproven. */
  unionPlan(s: JsonSchema, mode: GenMode): UnionPlan {
    const key = JSON.stringify([this.cx.modeKey(s, mode), shapeKey(s)]);
    let plan = this.shared.plans.get(key);
    if (!plan) {
      plan = planUnion(s, this.cx.resolver);
      this.shared.plans.set(key, plan);
      if (plan.unproven) {
        plan = vetUnion(plan, mode, this.shared.judge, (variant) => this.sampleVariant(variant, mode));
        this.shared.plans.set(key, plan);
      }
    }
    return plan;
  }

  /** Values of a variant form, from a fresh emitter: at the top and past the optional depth. */
  private sampleVariant(variant: Variant, mode: GenMode): unknown[] {
    const emitter = this.fork();
    const site: Site = { mode, depth: PARAMETER, hint: 'sample', unique: false };
    const name = emitter.helperFunction('sample', 'sample', () => [`return ${emitter.variantValue(variant, site)};`]);
    const [generate] = loadGenerators(emitter.declarations(), [name]);
    return sample(generate!, SAMPLES, [0, OPTIONAL_DEPTH]);
  }

  /** A union decided at build time, or a call to a helper choosing among variants at random. */
  unionValue(s: JsonSchema, plan: UnionPlan, site: Site): string {
    const [first] = plan.variants;
    if (!first) return 'null';
    if (plan.variants.length > 1) {
      const key = JSON.stringify(['union', this.cx.modeKey(s, site.mode), site.name ?? '', site.unique, shapeKey(s)]);
      const fn = this.cx.code.helperFunction(key, site.hint, () => this.unionSwitch(plan, { ...site, depth: PARAMETER, definition: undefined }));
      return this.cx.call(fn, site.depth);
    }
    const expr = this.variantValue(first, { ...site, depth: deeper(site.depth) });
    const composite = ['object', 'array'].includes(inferType(this.cx.resolver.view(first.schema)));
    return plan.nullable && composite ? choose(below(site.depth, OPTIONAL_DEPTH), expr, 'null') : expr;
  }

  unionSwitch(plan: UnionPlan, site: Site): string[] {
    const last = plan.variants.length - 1;
    const lines = plan.nullable ? [`if (d >= ${OPTIONAL_DEPTH}) return null;`] : [];
    lines.push(`switch (g.int(0, ${last})) {`);
    plan.variants.forEach((variant, i) => {
      const label = i < last ? `case ${i}:` : 'default:';
      lines.push(`  ${label} return ${this.variantValue(variant, { ...site, depth: deeper(site.depth) })};`);
    });
    lines.push('}');
    return lines;
  }

  variantValue(variant: Variant, site: Site): string {
    const expr = this.cx.value(variant.schema, { ...site, hint: `${site.hint}_${variant.label}`, definition: undefined });
    return variant.tag ? `g.tag(${expr}, ${literal(variant.tag.property)}, ${literal(variant.tag.value)})` : expr;
  }
}
