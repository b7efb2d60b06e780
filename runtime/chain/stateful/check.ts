import { TemplateSyntaxError } from '../../../common/template/index.js';
import { PatternError, compileJsonPath, parsePathPattern } from '../../match/index.js';
import type { ResourceIdExtract, StatefulOptions } from './config.js';
import { compileStateAnswer } from './state-response.js';

/**
 * What the schema cannot check of core.stateful because only the runtime compiles it: path
 * patterns, JSONPaths and body templates. One `key: problem` line each, keys under `where`.
 */
export function checkStateful(options: StatefulOptions, where: string): string[] {
  const problems: string[] = [];
  for (const [m, machine] of options.state_machines.entries()) {
    const at = `${where}.state_machines[${m}]`;
    for (const [s, { response }] of machine.states.entries()) {
      if (response === undefined) continue;
      const problem = caught(() => compileStateAnswer(response));
      if (problem !== undefined) problems.push(`${at}.states[${s}].response.body_template: ${problem} (fix the {{…}} token)`);
    }
    problems.push(...checkExtractor(machine.resource_id_extract, `${at}.resource_id_extract`));
    for (const [t, transition] of machine.transitions.entries()) {
      const path = transition.path_pattern;
      const problem = path === undefined ? undefined : caught(() => parsePathPattern(path));
      if (problem !== undefined) problems.push(`${at}.transitions[${t}].path_pattern: ${problem}`);
    }
  }
  return problems;
}

function checkExtractor(spec: ResourceIdExtract, at: string): string[] {
  if (spec.type === 'composite') return spec.extractors.flatMap((inner, i) => checkExtractor(inner, `${at}.extractors[${i}]`));
  if (spec.type !== 'json_path') return [];
  const problem = caught(() => compileJsonPath(spec.path));
  return problem === undefined ? [] : [`${at}.path: the JSONPath ${problem}`];
}

/** The message of the PatternError or TemplateSyntaxError `compile` throws, or undefined. */
function caught(compile: () => unknown): string | undefined {
  try {
    compile();
    return undefined;
  } catch (e) {
    if (e instanceof PatternError || e instanceof TemplateSyntaxError) return e.message;
    throw e;
  }
}
