import { Command, Errors, Flags } from '@oclif/core';
import { debugging } from './debugging.js';
import { failureExitCode, failureLine } from './failure.js';

/** Base of every command: one-line errors and a non-zero exit, stack traces only when debugging. */
export abstract class MockCommand extends Command {
  static baseFlags = {
    debug: Flags.boolean({ description: 'Print stack traces of errors.', helpGroup: 'GLOBAL' }),
  };

  protected async catch(error: Error): Promise<never> {
    if (error instanceof Errors.ExitError) throw error; // this.exit() from run(): already decided
    process.stderr.write(`${failureLine(error, this.id, this.ctor)}\n`);
    if (debugging(this.argv) && error.stack) process.stderr.write(`${error.stack}\n`);
    return this.exit(failureExitCode(error));
  }
}
