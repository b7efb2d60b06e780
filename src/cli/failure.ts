import { stripVTControlCharacters } from 'node:util';
import { Errors } from '@oclif/core';
import { isMockError } from '../../common/errors.js';

/** Lines of oclif's parse errors that say nothing once the message is one line. */
const NOISE = [/^See more help with --help$/, /^The following errors? occurred:$/];

/** The single line a failure prints: ours as written, oclif's flag errors condensed, anything else prefixed. */
export function failureLine(error: Error, commandId: string | undefined): string {
  if (isMockError(error)) return error.message;
  if (error instanceof Errors.CLIError) return `mock: ${condense(error.message)} (see mock ${(commandId ?? '').replace(/:/g, ' ')} --help)`;
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
