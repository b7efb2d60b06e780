import type { OperationMeta } from '../../common/contract/index.js';
import type { Exchange } from '../exchange/index.js';
import { schemeCheck, type SchemeCheck, type SchemeContext, type SchemeVerdict } from './schemes.js';

/** Why a request was refused: what any one requirement asks for, why sent credentials were refused, a challenge per scheme. */
export interface SecurityFailure {
  expected: string;
  /** Set when credentials were sent and refused (a pinned key, a token that does not verify). */
  refused?: string;
  challenges: string[];
}

/** Undefined when the request satisfies the operation's security; a promise when a token has to be verified. */
export type SecurityCheck = (ex: Exchange) => SecurityFailure | undefined | Promise<SecurityFailure | undefined>;

/** The context of one scheme by its name. */
export type ContextOf = (scheme: string) => SchemeContext;

/**
 * The operation's security as one check: requirement objects are OR'ed, the schemes within one
 * AND'ed. Null when there is nothing to check: no requirement, an empty (optional) one, or one
 * made only of schemes that are not checked (mutualTLS).
 */
export function compileSecurity(op: OperationMeta, contextOf: ContextOf = () => ({})): SecurityCheck | null {
  const byName = new Map(op.security.map((s) => [s.scheme, schemeCheck(s, contextOf(s.scheme))]));
  const requirements: SchemeCheck[][] = [];
  for (const names of op.securityRequirements) {
    const checks = names.map((name) => byName.get(name)).filter((check): check is SchemeCheck => check !== null && check !== undefined);
    if (checks.length === 0) return null;
    requirements.push(checks);
  }
  if (requirements.length === 0) return null;
  const schemes = [...new Set(requirements.flat())];
  const expected = requirements.map((all) => all.map((check) => check.expected).join(' and ')).join(', or ');
  const missing: SecurityFailure = { expected, challenges: schemes.map((check) => check.challenge()) };

  const decide = (verdicts: Map<SchemeCheck, SchemeVerdict>): SecurityFailure | undefined => {
    if (requirements.some((all) => all.every((check) => verdicts.get(check) === true))) return undefined;
    const refusals = schemes.filter((check) => typeof verdicts.get(check) === 'string');
    if (refusals.length === 0) return missing;
    return {
      expected,
      refused: refusals.map((check) => `${verdicts.get(check) as string} (${check.name})`).join('; '),
      challenges: schemes.map((check) => {
        const verdict = verdicts.get(check);
        return check.challenge(typeof verdict === 'string' ? verdict : undefined);
      }),
    };
  };
  return (ex) => {
    const verdicts = schemes.map((check) => check.check(ex));
    if (!verdicts.some((v) => v instanceof Promise)) return decide(new Map(schemes.map((check, i) => [check, verdicts[i] as SchemeVerdict])));
    return Promise.all(verdicts).then((settled) => decide(new Map(schemes.map((check, i) => [check, settled[i]]))));
  };
}
