import { toConfiguredId, type Hook } from '@oclif/core';
import { closest, distance } from 'fastest-levenshtein';

/**
 * `mock serv`: one line naming the closest command, exit 127. On an interactive terminal
 * @oclif/plugin-not-found asks "Did you mean serve?" and runs it when confirmed. That plugin is
 * not listed in oclif.plugins: its own hook would also run, and when not on a terminal it prints
 * two lines without the suggestion.
 */
const hook: Hook.CommandNotFound = async function (options) {
  if (process.stdin.isTTY && process.stderr.isTTY) {
    const { default: ask } = await import('@oclif/plugin-not-found');
    return ask.call(this, options);
  }
  const { config } = options;
  const hidden = new Set(config.commands.filter((command) => command.hidden).map((command) => command.id));
  const ids = [...config.commandIDs, ...config.commands.flatMap((command) => command.aliases)].filter((id) => !hidden.has(id));
  const typed = toConfiguredId(options.id, config);
  // oclif reads words after a command that takes no arguments as part of its name: `mock serve x`
  const command = ids.filter((id) => options.id.startsWith(`${id}:`)).sort((a, b) => b.length - a.length)[0];
  if (command !== undefined) {
    const shown = toConfiguredId(command, config);
    const extra = toConfiguredId(options.id.slice(command.length + 1), config);
    process.stderr.write(`mock: ${shown} takes no arguments, got: ${extra} (see mock ${shown} --help)\n`);
    this.exit(2);
  }
  const best = ids.length > 0 ? closest(options.id, ids) : undefined;
  const near = best !== undefined && distance(options.id, best) <= Math.max(2, Math.floor(best.length / 2));
  const hint = near ? `; did you mean ${toConfiguredId(best, config)}?` : '';
  process.stderr.write(`mock: ${typed} is not a mock command${hint} (see mock --help)\n`);
  this.exit(127);
};

export default hook;
