import type { OperationMeta } from '../../../common/contract/index.js';
import type { Exchange } from '../exchange/index.js';
import { schemeCheck, type SchemeCheck, type SchemeContext, type SchemeVerdict } from './schemes.js';

/** Why a request was refused: what any one requirement asks for, why sent credentials were refused, a challenge per scheme. */
export interface SecurityFailure {
  expected: string;
  /** Set when credentials were sent and refused (a pinned key, a token that does not verify). */
  refused?: string;
  challenges: string[];
  /**
   * Set when a token was accepted but grants too few scopes: the scopes a requirement needs, and
   * the scheme's challenge with RFC 6750's insufficient_scope (a 403, not a 401).
   */
  insufficientScope?: { scopes: string[]; challenge: string };
  /** Every refusal was of a credential no request header could replace (a client certificate not trusted): 403. */
  forbidden?: boolean;
}

/** Undefined when the request satisfies the operation's security; a promise when a token has to be verified. */
export type SecurityCheck = (ex: Exchange) => SecurityFailure | undefined | Promise<SecurityFailure | undefined>;

/** The context of one scheme by its name. */
export type ContextOf = (scheme: string) => SchemeContext;

/**
 * The operation's security as one check: requirement objects are OR'ed, the schemes within one
 * AND'ed. Null when there is nothing to check: no requirement, an empty (optional) one, or one
 * made only of schemes that are not checked (types OpenAPI does not define).
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
  const missing: SecurityFailure = { expected, challenges: challengesOf(schemes.map((check) => check.challenge())) };

  const scopesOf = (i: number): Record<string, string[]> => op.requiredScopes?.[i] ?? {};
  /** A requirement's schemes all accept; undefined, or the scopes it lacks (tokens that say what they grant). */
  const lacking = (all: SchemeCheck[], i: number, verdicts: Map<SchemeCheck, SchemeVerdict>): { check: SchemeCheck; scopes: string[] } | 'no' | undefined => {
    let short: { check: SchemeCheck; scopes: string[] } | undefined;
    for (const check of all) {
      const verdict = verdicts.get(check);
      if (verdict === true) continue;
      if (typeof verdict !== 'object') return 'no';
      const needed = scopesOf(i)[check.name] ?? [];
      if (verdict.scopes !== undefined && needed.some((scope) => !verdict.scopes?.includes(scope))) short ??= { check, scopes: needed };
    }
    return short;
  };
  const decide = (verdicts: Map<SchemeCheck, SchemeVerdict>): SecurityFailure | undefined => {
    const outcomes = requirements.map((all, i) => lacking(all, i, verdicts));
    if (outcomes.includes(undefined)) return undefined;
    const short = outcomes.find((o): o is { check: SchemeCheck; scopes: string[] } => typeof o === 'object');
    if (short !== undefined) {
      const challenge = `${short.check.challenge()}, error="insufficient_scope", scope="${short.scopes.join(' ')}"`;
      return { expected, refused: `the token does not grant the scopes ${short.scopes.join(' ')} (${short.check.name})`, challenges: [challenge], insufficientScope: { scopes: short.scopes, challenge } };
    }
    const refusals = schemes.filter((check) => typeof verdicts.get(check) === 'string');
    if (refusals.length === 0) return missing;
    return {
      expected,
      refused: refusals.map((check) => `${verdicts.get(check) as string} (${check.name})`).join('; '),
      challenges: challengesOf(
        schemes.map((check) => {
          const verdict = verdicts.get(check);
          return check.challenge(typeof verdict === 'string' ? verdict : undefined);
        }),
      ),
      forbidden: refusals.every((check) => check.forbids === true),
    };
  };
  return (ex) => {
    const verdicts = schemes.map((check) => check.check(ex));
    if (!verdicts.some((v) => v instanceof Promise)) return decide(new Map(schemes.map((check, i) => [check, verdicts[i] as SchemeVerdict])));
    return Promise.all(verdicts).then((settled) => decide(new Map(schemes.map((check, i) => [check, settled[i]]))));
  };
}

/** Schemes without a challenge (mutualTLS) add no WWW-Authenticate field. */
const challengesOf = (challenges: string[]): string[] => challenges.filter((challenge) => challenge !== '');
