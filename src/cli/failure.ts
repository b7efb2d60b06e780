import { stripVTControlCharacters } from 'node:util';
import { Errors, type Command } from '@oclif/core';
import { closest, distance } from 'fastest-levenshtein';
import { isMockError } from '../../common/errors.js';

/** Lines of oclif's parse errors that say nothing once the message is one line. */
const NOISE = [/^See more help with --help$/, /^The following errors? occurred:$/];

/** The single line a failure prints: ours as written, oclif's parse errors condensed, anything else prefixed. */
export function failureLine(error: Error, commandId: string | undefined, command: typeof Command): string {
  if (isMockError(error)) return error.message;
  const shown = `mock ${(commandId ?? '').replace(/:/g, ' ')}`;
  const missing = missingArgs(error);
  if (missing) return missingArgsLine(shown, missing, command);
  if (error instanceof Errors.CLIError) return `mock: ${condense(error.message)}${flagHint(error, command)} (see ${shown} --help)`;
  return `mock: ${error.message}`;
}

export function failureExitCode(error: Error): number {
  if (isMockError(error)) return error.exitCode;
  if (error instanceof Errors.CLIError) return error.oclif.exit ?? 2;
  return 1;
}

/** `Parsing --http-port \n\tExpected an integer but received: abc\nSee more help with --help` → `--http-port: Expected …`. */
function condense(message: string): string {
  return stripVTControlCharacters(message)
    .split('\n')
    .map((line) => line.trim().replace(/^Parsing (--\S+)$/, '$1'))
    .filter((line) => line !== '' && !NOISE.some((noise) => noise.test(line)))
    .join(': ');
}

/**
 * The names of the arguments oclif's RequiredArgsError reports (not exported by @oclif/core: it is
 * the CLIError whose `args` are argument definitions), whose own message is a multi-line table.
 */
function missingArgs(error: Error): string[] | undefined {
  if (!(error instanceof Errors.CLIError) || !('args' in error) || !Array.isArray(error.args)) return undefined;
  const names = error.args.map((arg: unknown) => (typeof arg === 'object' && arg !== null && 'name' in arg ? String(arg.name) : undefined));
  return names.length > 0 && names.every((name) => name !== undefined) ? names : undefined;
}

/** `mock init: missing the <name> argument: run mock init <name>, e.g. mock init my-api`. */
function missingArgsLine(shown: string, missing: readonly string[], command: typeof Command): string {
  const what = missing.length === 1 ? `the <${missing[0]}> argument` : `the arguments ${missing.map((name) => `<${name}>`).join(' ')}`;
  const usage = Object.entries(command.args ?? {})
    .map(([name, arg]) => (arg.required ? `<${name}>` : `[<${name}>]`))
    .join(' ');
  const [example] = command.examples ?? [];
  const text = typeof example === 'string' ? example : example?.command;
  const instance = text?.replace('<%= config.bin %> <%= command.id %>', shown);
  return `${shown}: missing ${what}: run ${shown} ${usage}${instance ? `, e.g. ${instance}` : ''}`;
}

/**
 * `; did you mean --http-port?` for oclif's NonExistentFlagsError (not exported by @oclif/core:
 * the CLIError whose `flags` are the names typed), as the command_not_found hook does for commands.
 */
function flagHint(error: Errors.CLIError, command: typeof Command): string {
  if (!('flags' in error) || !Array.isArray(error.flags) || !error.flags.every((flag) => typeof flag === 'string')) return '';
  const names = Object.entries({ ...command.baseFlags, ...command.flags }).flatMap(([name, flag]) => (flag.type === 'boolean' && flag.allowNo ? [name, `no-${name}`] : [name]));
  const typed = error.flags as string[];
  const hints = typed.flatMap((flag) => {
    const near = closestFlag(flag, names);
    return near === undefined ? [] : [{ flag, near: `--${near}` }];
  });
  if (hints.length === 0) return '';
  return `; did you mean ${hints.length === 1 && typed.length === 1 ? hints[0].near : hints.map(({ flag, near }) => `${near} (for ${flag})`).join(', ')}?`;
}

/**
 * A word of a flag's name first (`--port`: the first flag the command declares with a word port,
 * --http-port, where spelling alone would pick --host), then a flag the typed name starts or
 * begins, else the nearest spelling.
 */
function closestFlag(typed: string, names: readonly string[]): string | undefined {
  if (!typed.startsWith('--') || names.length === 0) return undefined;
  const word = typed.slice(2).split('=')[0].toLowerCase();
  if (word === '') return undefined;
  const byWord = names.find((name) => name.split('-').includes(word));
  if (byWord !== undefined) return byWord;
  // --outdir for --out, --exampl for --examples
  const byStart = names.find((name) => Math.min(name.length, word.length) >= 3 && (word.startsWith(name) || name.startsWith(word)));
  if (byStart !== undefined) return byStart;
  const best = closest(word, [...names]);
  return distance(word, best) <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}
