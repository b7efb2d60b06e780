import { TemplateSyntaxError } from './errors.js';

const ARG = /\s*(?:'([^']*)'|"([^"]*)"|([^,'"]*?))\s*(?:,|$)/y;
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * The arguments of `{{plugin:name:action(a, 'b c', 3)}}` as the JSON array text the plugin is
 * given (docs/plugins.md): quoted arguments are strings as written, numbers, true, false and null
 * are themselves, anything else is a string. Made once when the template is parsed.
 */
export function pluginArgs(args: string, offset: number): string {
  const values: unknown[] = [];
  if (args.trim() === '') return '[]';
  ARG.lastIndex = 0;
  while (ARG.lastIndex < args.length) {
    const start = ARG.lastIndex;
    const m = ARG.exec(args);
    if (m === null || ARG.lastIndex === start) throw new TemplateSyntaxError(`malformed plugin arguments (${args}): separate them with commas and quote text that has quotes or commas`, offset);
    const quoted = m[1] ?? m[2];
    const bare = m[3] ?? '';
    values.push(quoted !== undefined ? quoted : NUMBER.test(bare) ? Number(bare) : bare === 'true' ? true : bare === 'false' ? false : bare === 'null' ? null : bare);
  }
  return JSON.stringify(values);
}
