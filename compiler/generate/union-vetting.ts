/**
 * oneOf variants the build could not prove exclusive are tried out instead: a form of a variant
 * is kept when every sampled value satisfies the union's siblings and exactly its own member.
 */
import type { GenMode } from './api.js';
import type { SchemaJudge } from './judge.js';
import type { UnionPlan, Variant } from './unions.js';

/** Values generated from a variant form at build time. */
export type VariantSampler = (variant: Variant) => unknown[];

export function vetUnion(plan: UnionPlan, mode: GenMode, judge: SchemaJudge, sample: VariantSampler): UnionPlan {
  const { unproven } = plan;
  if (!unproven) return plan;
  const onlyItsOwn = (variant: Variant) =>
    sample(variant).every(
      (value) =>
        (unproven.base === undefined || judge.accepts(unproven.base, mode, value)) &&
        unproven.members.every((member, i) => judge.accepts(member, mode, value) === (i === variant.member)),
    );
  const kept: Variant[] = [];
  for (const forms of unproven.forms) {
    const form = forms.find(onlyItsOwn);
    if (form) kept.push(form);
    if (form && !unproven.all) break;
  }
  // Nothing passes: no value may satisfy exactly one member. The build's check names the schema.
  if (kept.length === 0) return { variants: plan.variants, nullable: plan.nullable, unsatisfied: true };
  return { variants: kept, nullable: plan.nullable };
}
