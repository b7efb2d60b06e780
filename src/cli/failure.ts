import { stripVTControlCharacters } from 'node:util';
import { Errors, type Command } from '@oclif/core';
import { isMockError } from '../../common/errors.js';

/** Lines of oclif's parse errors that say nothing once the message is one line. */
const NOISE = [/^See more help with --help$/, /^The following errors? occurred:$/];

/** The single line a failure prints: ours as written, oclif's parse errors condensed, anything else prefixed. */
export function failureLine(error: Error, commandId: string | undefined, command: typeof Command): string {
  if (isMockError(error)) return error.message;
  const shown = `mock ${(commandId ?? '').replace(/:/g, ' ')}`;
  const missing = missingArgs(error);
  if (missing) return missingArgsLine(shown, missing, command);
  if (error instanceof Errors.CLIError) return `mock: ${condense(error.message)} (see ${shown} --help)`;
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
