import { readFileSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { parse as parseYaml } from 'yaml';
import { MockError } from '../../../common/errors.js';
import { DEFAULT_ADMIN_LIMITS } from '../../serve-options.js';
import { tooManyRules } from './override-set.js';
import { readRuleSet, type OverrideRule } from './rule.js';

export interface LoadOverridesOptions {
  env: NodeJS.ProcessEnv;
  /** MOCK_HTTP_OVERRIDES_GLOB is relative to it. */
  cwd: string;
  /** `http.overrides.rules` from the configuration file. */
  configRules?: unknown[];
  /** `http.overrides.glob` from the configuration file (absolute or relative to cwd); MOCK_HTTP_OVERRIDES_GLOB replaces it. */
  configGlob?: string;
  /** admin.limits.max_override_rules: most rules of all sources together. */
  maxRules?: number;
}

interface Source {
  /** What a user would look at to fix it: a setting, a variable or a file. */
  name: string;
  rules: OverrideRule[];
}

const EXTENSIONS = ['.json', '.yaml', '.yml'];

/**
 * The startup rule set: configuration rules, then MOCK_HTTP_OVERRIDES, then each file the glob
 * matches (sorted by path). Throws MOCK_ERR_OVERRIDES_INVALID naming the source and the fix.
 */
export function loadOverrides(options: LoadOverridesOptions): OverrideRule[] {
  const { env, cwd, configRules } = options;
  const sources: Source[] = [];
  if (configRules !== undefined) sources.push(checked('http.overrides.rules', configRules, 'fix it in the configuration file'));
  const json = env.MOCK_HTTP_OVERRIDES;
  if (json !== undefined && json.trim() !== '') {
    sources.push(checked('MOCK_HTTP_OVERRIDES', parseWith(JSON.parse, json, 'MOCK_HTTP_OVERRIDES is not valid JSON', 'set it to a JSON array of override rules'), 'fix it in MOCK_HTTP_OVERRIDES'));
  }
  const envGlob = env.MOCK_HTTP_OVERRIDES_GLOB !== undefined && env.MOCK_HTTP_OVERRIDES_GLOB !== '' ? env.MOCK_HTTP_OVERRIDES_GLOB : undefined;
  const glob = envGlob ?? options.configGlob;
  if (glob !== undefined) sources.push(...globSources(glob, envGlob !== undefined ? 'MOCK_HTTP_OVERRIDES_GLOB' : 'http.overrides.glob', cwd));
  const rules = merged(sources);
  const max = options.maxRules ?? DEFAULT_ADMIN_LIMITS.max_override_rules;
  if (rules.length > max) throw invalid(`${sources.filter((s) => s.rules.length > 0).map((s) => s.name).join(', ')}: ${tooManyRules(rules.length, max)}`);
  return rules;
}

function globSources(pattern: string, setting: string, cwd: string): Source[] {
  const files = globSync(pattern, { cwd, absolute: path.isAbsolute(pattern), expandDirectories: false }).sort();
  if (files.length === 0) throw invalid(`${setting} "${pattern}" matches no file under ${cwd}; fix the pattern or unset ${setting}`);
  return files.map((file) => {
    const extension = path.extname(file).toLowerCase();
    if (!EXTENSIONS.includes(extension)) throw invalid(`${file} matches ${setting} but is not a .json, .yaml or .yml file; narrow the pattern`);
    let text: string;
    try {
      text = readFileSync(path.resolve(cwd, file), 'utf8');
    } catch (error) {
      throw invalid(`cannot read ${file} (${(error as Error).message}); fix its permissions or narrow ${setting}`);
    }
    const parse = extension === '.json' ? JSON.parse : parseYaml;
    const fix = `fix the file or narrow ${setting}`;
    return checked(file, parseWith(parse, text, `${file} is not valid ${extension === '.json' ? 'JSON' : 'YAML'}`, fix), fix);
  });
}

function parseWith(parse: (text: string) => unknown, text: string, problem: string, fix: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    throw invalid(`${problem} (${firstLine((error as Error).message)}); ${fix}`);
  }
}

function checked(name: string, input: unknown, fix: string): Source {
  const result = readRuleSet(input);
  if (!result.ok) throw invalid(`${name}: ${result.error}; ${fix}`);
  return { name, rules: result.rules };
}

/** Names are unique in the live set, so across every source too. */
function merged(sources: Source[]): OverrideRule[] {
  const owner = new Map<string, string>();
  const rules: OverrideRule[] = [];
  for (const source of sources) {
    for (const rule of source.rules) {
      const first = owner.get(rule.name);
      if (first !== undefined) throw invalid(`override rule "${rule.name}" is defined in both ${first} and ${source.name}; rename one of them`);
      owner.set(rule.name, source.name);
      rules.push(rule);
    }
  }
  return rules;
}

/** Parser messages can run over several lines (YAML quotes the source); the first says what is wrong. */
function firstLine(text: string): string {
  return text.split('\n', 1)[0].replace(/:$/, '');
}

function invalid(message: string): MockError {
  return new MockError('MOCK_ERR_OVERRIDES_INVALID', message);
}
