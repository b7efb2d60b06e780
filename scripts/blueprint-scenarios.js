// Writes scenarios/<name>/ from blueprints/<name>/ for the blueprints of `mock init` other than the
// default petstore: the same API, configuration and fixtures as a scenario package (docs/scenarios.md),
// so `mock scenario install scenarios/ecommerce` serves what `mock init --blueprint ecommerce` scaffolds.
// Run after changing a blueprint: `node scripts/blueprint-scenarios.js` (`--out <dir>` writes elsewhere:
// a test compares that with scenarios/ and holds the output valid).
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseDocument } from 'yaml';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const SCENARIOS = {
  ecommerce: { category: 'ecommerce', tags: ['shop', 'orders', 'stateful'], summary: 'An online shop: products, carts and orders moving pending → processing → shipped.' },
  'b2c-saas': { category: 'saas', tags: ['subscriptions', 'billing', 'stateful'], summary: 'A B2C SaaS: user, plans and subscriptions moving trialing → active → canceled.' },
  'banking-lite': { category: 'banking', tags: ['accounts', 'transfers', 'otp'], summary: 'Retail banking: accounts, transactions and OTP-confirmed transfers.' },
};
const title = (name) => `${name} scenario`;
const outAt = process.argv.indexOf('--out');
const out = outAt === -1 ? path.join(root, 'scenarios') : path.resolve(process.argv[outAt + 1]);

for (const [name, meta] of Object.entries(SCENARIOS)) {
  const from = path.join(root, 'blueprints', name);
  const to = path.join(out, name);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(path.join(to, 'examples'), { recursive: true });
  const fill = (text) => text.replaceAll('__PROJECT_NAME__', title(name));

  const config = parseDocument(fill(readFileSync(path.join(from, 'mock.yaml'), 'utf8')));
  config.delete('server'); // the project's ports stay the project's
  config.set('specs', ['./openapi.json']);
  config.commentBefore = ` mock.yaml settings of the ${name} scenario (generated from blueprints/${name} by scripts/blueprint-scenarios.js).`;
  writeFileSync(path.join(to, 'config.yaml'), config.toString());
  writeFileSync(path.join(to, 'openapi.json'), `${JSON.stringify(parse(fill(readFileSync(path.join(from, 'api.yaml'), 'utf8'))), null, 2)}\n`);
  cpSync(path.join(from, 'fixtures'), path.join(to, 'fixtures'), { recursive: true });
  writeFileSync(path.join(to, 'README.md'), fill(readFileSync(path.join(from, 'README.md'), 'utf8')));
  writeFileSync(path.join(to, 'CHANGELOG.md'), `# Changelog\n\n## 1.0.0\n\n- The ${name} blueprint of \`mock init\` as a scenario.\n`);
  const examples = readFileSync(path.join(from, 'README.md'), 'utf8').match(/<!-- examples -->\n([\s\S]*?)<!-- \/examples -->/);
  writeFileSync(path.join(to, 'examples', 'requests.sh'), `#!/bin/sh\n# Requests to try against \`mock serve\` serving this scenario.\n${examples ? examples[1] : ''}`);
  const manifest = {
    name: `mock-scenario-${name}`,
    version: '1.0.0',
    description: meta.summary,
    author: 'mock',
    category: meta.category,
    tags: meta.tags,
    dependencies: [],
  };
  writeFileSync(
    path.join(to, 'scenario.yaml'),
    `# The ${name} blueprint of mock init, as a scenario package (docs/scenarios.md).\n${Object.entries(manifest)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join('\n')}\n`,
  );
}
