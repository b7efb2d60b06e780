import { MockError } from '../../../common/errors.js';
import { isStackOverflow } from '../../../common/json-depth.js';
import { DEFAULT_ADMIN_LIMITS } from '../../serve-options.js';
import type { Answer, Exchange } from '../exchange/index.js';
import { compileRule, ruleMatches, type CompiledRule } from './compiled-rule.js';
import { mergePatch } from './merge-patch.js';
import { requestPath } from '../../match/index.js';
import { readRuleSet, type OverrideRule, type RuleSetResult } from './rule.js';
import { andThen, Cell, MemoryStore, settingsBudget, type Awaitable, type Store } from '../../store/index.js';

export interface OverrideOutcome {
  /** The input answer itself when no rule changed it. */
  response: Answer;
  delayMs: number;
  /** Names of the rules that matched, in order. */
  applied: string[];
}

const JSON_TYPE = /^[^;]*[/+]json\s*(?:;|$)/i;

/** A replacement refused: 413 when it holds more rules than admin.limits.max_override_rules, else 400. */
export type OverrideSetResult = RuleSetResult | { ok: false; status: 413; error: string };

/**
 * The live override rules, kept as the `overrides` key of the settings store and compiled here
 * whenever it changes; the chain runs them only while `active`.
 */
export class OverrideSet {
  private readonly cell: Cell<OverrideRule[]>;
  private compiled: CompiledRule[] = [];
  private listeners: Array<() => void> = [];

  /**
   * `rules` come checked from loadOverrides; anything else throws MOCK_ERR_OVERRIDES_INVALID.
   * `maxRules`: admin.limits.max_override_rules.
   */
  constructor(
    rules: OverrideRule[] = [],
    readonly maxRules = DEFAULT_ADMIN_LIMITS.max_override_rules,
    settings: Store<unknown> = new MemoryStore('settings', settingsBudget),
  ) {
    const result = this.read(rules);
    if (!result.ok) throw new MockError('MOCK_ERR_OVERRIDES_INVALID', `${result.error} (fix the override rules)`);
    this.cell = new Cell(settings as Store<OverrideRule[]>, 'overrides', result.rules);
    this.install(this.cell.get());
    this.cell.onChange((installed) => {
      this.install(installed);
      for (const listener of this.listeners) listener();
    });
  }

  /** The wire shape, for GET /__mock/overrides. */
  get rules(): readonly OverrideRule[] {
    return this.cell.get();
  }

  get active(): boolean {
    return this.compiled.length > 0;
  }

  /** PUT /__mock/overrides: the whole set is checked first; on any error the previous rules stay. Settles once the store holds the rules. */
  replace(input: unknown): Awaitable<OverrideSetResult> {
    const result = this.read(input);
    return result.ok ? andThen(this.cell.set(result.rules), () => result) : result;
  }

  /** Called after every accepted replacement. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Every enabled matching rule applies in order, later ones winning. `response` is never
   * modified (it may be a shared cached object): a new one is built only when something changes.
   */
  apply(ex: Exchange, response: Answer): OverrideOutcome {
    let path: string | undefined;
    const pathOf = (): string => (path ??= requestPath(ex.path));
    const applied: string[] = [];
    let { status, headers, body } = response;
    let delayMs = 0;
    for (const rule of this.compiled) {
      if (!ruleMatches(rule, ex, pathOf)) continue;
      applied.push(rule.name);
      if (rule.body !== undefined) {
        body = rule.body.text;
        if (rule.body.type !== undefined) headers = withHeader(headers, 'content-type', rule.body.type);
      }
      if (rule.merge !== undefined) body = merged(body, headers, rule.merge);
      if (rule.status !== undefined) status = rule.status;
      for (const [name, value] of rule.setHeaders) headers = withHeader(headers, name, value);
      if (rule.delayMs !== undefined) delayMs = rule.delayMs;
    }
    const changed = status !== response.status || headers !== response.headers || body !== response.body;
    return { response: changed ? { ...response, status, headers, body, source: 'override' } : response, delayMs, applied };
  }

  private read(input: unknown): OverrideSetResult {
    const result = readRuleSet(input);
    if (!result.ok || result.rules.length <= this.maxRules) return result;
    return { ok: false, status: 413, error: tooManyRules(result.rules.length, this.maxRules) };
  }

  private install(rules: OverrideRule[]): void {
    this.compiled = rules.filter((rule) => rule.enabled).map(compileRule);
  }
}

/** Why a set of `count` rules is refused; load.ts says it of the startup sources too. */
export const tooManyRules = (count: number, max: number): string =>
  `${count} override rules are more than admin.limits.max_override_rules (${max}); remove some or raise admin.limits.max_override_rules in mock.yaml`;

/** A copy of `headers` with every `name` entry replaced by one; `name` is lower case. */
function withHeader(headers: Array<[string, string]>, name: string, value: string): Array<[string, string]> {
  const out = headers.filter(([own]) => own.toLowerCase() !== name);
  out.push([name, value]);
  return out;
}

/**
 * The body patched when the response is JSON text; otherwise unchanged (a merge needs a JSON body,
 * and one nested deeper than the merge and JSON.stringify can walk is left as it is).
 */
function merged(body: string | Uint8Array, headers: Array<[string, string]>, patch: Record<string, unknown>): string | Uint8Array {
  const type = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (typeof body !== 'string' || type === undefined || !JSON_TYPE.test(type)) return body;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return body;
  }
  try {
    return JSON.stringify(mergePatch(value, patch));
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    return body;
  }
}
