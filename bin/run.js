#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execute } from '@oclif/core';

// a clone builds on `npm start` and `npm test` (and the package on `npm pack`), not on `npm install`
if (!existsSync(new URL('../dist/src/commands/', import.meta.url))) {
  process.stderr.write(`mock: not built yet (no dist/ in ${fileURLToPath(new URL('..', import.meta.url))}): run \`npm run build\` there once (npm start and npm test build first)\n`);
  process.exit(1);
}

await execute({ dir: import.meta.url });
