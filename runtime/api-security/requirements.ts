import type { OperationMeta } from '../../common/contract/index.js';
import type { Exchange } from '../exchange/index.js';
import { schemeCheck, type SchemeCheck } from './schemes.js';

/** Why a request was refused: what any one requirement asks for, and a challenge per scheme. */
export interface SecurityFailure {
  expected: string;
  challenges: string[];
}

/** Undefined when the request satisfies the operation's security. */
export type SecurityCheck = (ex: Exchange) => SecurityFailure | undefined;

/**
 * The operation's security as one check: requirement objects are OR'ed, the schemes within one
 * AND'ed. Null when there is nothing to check: no requirement, an empty (optional) one, or one
 * made only of schemes that are not checked (mutualTLS).
 */
export function compileSecurity(op: OperationMeta): SecurityCheck | null {
  const byName = new Map(op.security.map((s) => [s.scheme, schemeCheck(s)]));
  const requirements: SchemeCheck[][] = [];
  for (const names of op.securityRequirements) {
    const checks = names.map((name) => byName.get(name)).filter((check): check is SchemeCheck => check !== null && check !== undefined);
    if (checks.length === 0) return null;
    requirements.push(checks);
  }
  if (requirements.length === 0) return null;
  const schemes = [...new Set(requirements.flat())];
  const failure: SecurityFailure = {
    expected: requirements.map((all) => all.map((check) => check.expected).join(' and ')).join(', or '),
    challenges: schemes.map((check) => check.challenge),
  };
  return (ex) => (requirements.some((all) => all.every((check) => check.satisfiedBy(ex))) ? undefined : failure);
}
