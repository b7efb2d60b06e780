import { readFileSync } from 'node:fs';
import t from 'tap';
import { FLAG_KEYS } from '../../dist/src/cli/config-flags.js';
import { DEPRECATIONS, ENV_VARIABLES } from '../../dist/src/config/index.js';

// The README is a landing page; the reference it links to is docs/cli.md and docs/configuration.md.
const readme = ['../../README.md', '../../docs/cli.md', '../../docs/configuration.md'].map((p) => readFileSync(new URL(p, import.meta.url), 'utf8')).join('\n');

t.test('the README and the reference it links to document every variable, flag and deprecation', async (t) => {
  for (const { name, key } of ENV_VARIABLES) t.match(readme, new RegExp(`\\| \`${name}\` \\|[^\\n]*\`${key.replaceAll('.', '\\.')}\``), name);
  for (const flag of Object.keys(FLAG_KEYS)) t.match(readme, new RegExp(`\`--(\\[no-\\])?${flag}[\` =]`), `--${flag}`);
  for (const { key, replacement } of DEPRECATIONS) t.match(readme, `\`${key}\` → \`${replacement}\``, key);
});
