import { CAPTURE_NAME } from './message-matcher.js';
import { ScriptLineError, readScriptLine, type ScriptStep } from './script-line.js';
import { jsonSyntaxError } from '../json-syntax.js';

/** A malformed line: where and why, for a one-line report. */
export interface ScriptProblem {
  line: number;
  message: string;
}

export interface ReplayScript {
  steps: ScriptStep[];
  /** Every name a line captures: templates may use them. */
  vars: string[];
}

/** Names every script's templates can use: the last client message as text. */
export const SCRIPT_VARS = ['message'] as const;

/**
 * Reads a replay script (JSON Lines, blank lines skipped). Every malformed line is a problem
 * (line number and reason); the lines that are fine are returned in file order, which is the
 * order they play in.
 */
export function parseScript(text: string): { script: ReplayScript; problems: ScriptProblem[] } {
  const problems: ScriptProblem[] = [];
  const parsed: Array<{ line: number; value: unknown }> = [];
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    try {
      parsed.push({ line, value: JSON.parse(raw) as unknown });
    } catch (e) {
      problems.push({ line, message: `is not JSON (${jsonSyntaxError(e)})` });
    }
  });
  const vars = [...new Set([...SCRIPT_VARS, ...parsed.flatMap(({ value }) => capturedNames(value))])];
  const steps: ScriptStep[] = [];
  for (const { line, value } of parsed) {
    try {
      steps.push(readScriptLine(value, line, vars));
    } catch (e) {
      if (!(e instanceof ScriptLineError)) throw e;
      problems.push({ line, message: e.message });
    }
  }
  problems.sort((a, b) => a.line - b.line);
  if (steps.length === 0 && problems.length === 0) problems.push({ line: 1, message: 'the script has no lines; write one JSON object per line, e.g. {"ts": 0, "dir": "out", "text": "hello"}' });
  return { script: { steps, vars }, problems };
}

/** Capture names a line declares: `capture` keys and a regex waitFor's named groups. */
function capturedNames(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  const { capture, waitFor } = value as { capture?: unknown; waitFor?: unknown };
  const names = capture !== null && typeof capture === 'object' ? Object.keys(capture).filter((name) => CAPTURE_NAME.test(name)) : [];
  if (typeof waitFor === 'string' && !waitFor.startsWith('$')) for (const m of waitFor.matchAll(/\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g)) names.push(m[1]);
  return names;
}

/** `file:line: reason`, as start-up and `mock validate-fixtures` report a problem. */
export const scriptProblemLine = (file: string, problem: ScriptProblem): string => `${file}:${problem.line}: ${problem.message}`;
