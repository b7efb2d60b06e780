import { PatternError, type LinearPattern } from '../../../common/patterns/index.js';
import { compileExpression, compileGlob, globMayReach, type Expression, type ExpressionRequest, type TemplateSegment } from '../../match/index.js';
import { checkUpstreamUrl } from './upstream.js';

/** One rule of the conditional proxy (spec `ProxyConfig.rules[]`), as mock.yaml and the SDK write it. */
export interface ProxyRule {
  /** A path glob (docs/configuration.md, "Path globs"). */
  pattern: string;
  /** Where matching requests go; absent: proxy.upstream_url. */
  upstream_url?: string;
  /** A condition expression (docs/configuration.md, "Conditions"); absent: every request the pattern matches. */
  condition?: string;
}

/** A rule compiled once, at start. */
export interface CompiledProxyRule {
  readonly pattern: string;
  readonly glob: LinearPattern;
  readonly upstream?: string;
  readonly condition?: Expression;
}

/**
 * Compiles the rules, or returns what is wrong with them as `<where>[i].<key>: <text>` lines
 * (a condition's line gives the position of its first mistake). `hasUpstream`: whether
 * proxy.upstream_url is set, which rules without their own upstream_url forward to.
 */
export function compileProxyRules(rules: readonly ProxyRule[], where: string, hasUpstream: boolean): { rules: CompiledProxyRule[]; errors: string[] } {
  const compiled: CompiledProxyRule[] = [];
  const errors: string[] = [];
  for (const [i, rule] of rules.entries()) {
    const at = `${where}[${i}]`;
    let glob: LinearPattern | undefined;
    let condition: Expression | undefined;
    try {
      glob = compileGlob(rule.pattern);
    } catch (e) {
      if (!(e instanceof PatternError)) throw e;
      errors.push(`${at}.pattern: the glob ${e.message}`);
    }
    if (rule.upstream_url !== undefined) {
      const problem = checkUpstreamUrl(rule.upstream_url);
      if (problem !== undefined) errors.push(`${at}.upstream_url: ${problem}`);
    } else if (!hasUpstream) errors.push(`${at}.upstream_url: a rule needs an upstream: give it upstream_url, or set proxy.upstream_url`);
    if (rule.condition !== undefined) {
      try {
        condition = compileExpression(rule.condition);
      } catch (e) {
        if (!(e instanceof PatternError)) throw e;
        errors.push(`${at}.condition: ${e.message}`);
      }
    }
    if (glob !== undefined) compiled.push({ pattern: rule.pattern, glob, upstream: rule.upstream_url, condition });
  }
  return { rules: errors.length === 0 ? compiled : [], errors };
}

/** Hot path: the first rule whose pattern matches the path (`requestPath` form) and whose condition holds. */
export function ruleFor(rules: readonly CompiledProxyRule[], path: string, request: ExpressionRequest): CompiledProxyRule | undefined {
  for (const rule of rules) if (rule.glob.test(path) && (rule.condition === undefined || rule.condition.holds(request))) return rule;
  return undefined;
}

/** Whether some rule's pattern can reach a route's template (the stage runs only there). */
export const rulesMayReach = (rules: readonly CompiledProxyRule[], template: readonly TemplateSegment[]): boolean => rules.some((rule) => globMayReach(rule.pattern, template));
