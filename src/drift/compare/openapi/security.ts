import type { Changes } from './changes.js';

type Requirement = Record<string, string[]>;

const key = (requirement: Requirement): string => Object.keys(requirement).sort().join(' + ') || '(none)';

/**
 * An operation's security is a list of alternatives: one satisfied is enough. An alternative gone
 * locks its clients out; one more is one more way in; an empty list means no authentication.
 */
export function compareSecurity(changes: Changes, where: string, pointer: string, before: unknown[], after: unknown[]): void {
  const oldReqs = new Map((before as Requirement[]).map((r) => [key(r), r]));
  const newReqs = new Map((after as Requirement[]).map((r) => [key(r), r]));
  const open = (reqs: Map<string, Requirement>): boolean => reqs.size === 0 || reqs.has('(none)');
  if (open(oldReqs) && !open(newReqs)) return changes.add('security-added', where, `${pointer}/security`, `authentication now required (${[...newReqs.keys()].join(' or ')})`);
  if (!open(oldReqs) && open(newReqs)) return changes.add('security-removed', where, `${pointer}/security`, 'authentication no longer required');
  for (const [name, requirement] of oldReqs) {
    const next = newReqs.get(name);
    if (next === undefined) {
      changes.add('security-requirement-removed', where, `${pointer}/security`, `security requirement ${name} removed`);
      continue;
    }
    for (const [scheme, scopes] of Object.entries(next)) {
      const had = new Set(requirement[scheme] ?? []);
      const has = new Set(scopes ?? []);
      for (const scope of has) if (!had.has(scope)) changes.add('security-scope-added', where, `${pointer}/security`, `security requirement ${name}: scope ${scope} added`);
      for (const scope of had) if (!has.has(scope)) changes.add('security-scope-removed', where, `${pointer}/security`, `security requirement ${name}: scope ${scope} removed`);
    }
  }
  for (const name of newReqs.keys()) {
    if (!oldReqs.has(name)) changes.add('security-requirement-added', where, `${pointer}/security`, `security requirement ${name} added`);
  }
}
