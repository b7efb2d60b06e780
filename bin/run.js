#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// a clone builds on `npm start` and `npm test` (and the package on `npm pack`), not on `npm install`
if (!existsSync(new URL('../dist/bundle/commands/', import.meta.url))) {
  process.stderr.write(`mock: not built yet (no dist/ in ${fileURLToPath(new URL('..', import.meta.url))}): run \`npm run build\` there once (npm start and npm test build first)\n`);
  process.exit(1);
}

// V8 sizes its young generation only from node's command line: `mock serve` restarts itself in
// place (same pid, same open files) with a higher ceiling, before anything loads (src/cli/young-generation.ts)
const { relaunchFlags, RELAUNCH_MARKER } = await import('../dist/src/cli/young-generation.js');
const relaunch = relaunchFlags(process.argv.slice(2));
if (relaunch !== undefined) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...relaunch, ...process.argv.slice(1)], { ...process.env, [RELAUNCH_MARKER]: '1' });
}

// oclif and the commands run from a bundle (dist/bundle): stack traces name the compiled modules through its source maps
const { debugging } = await import('../dist/src/cli/debugging.js');
if (debugging(process.argv.slice(2))) process.setSourceMapsEnabled(true);

const { execute } = await import('../dist/bundle/oclif.js');
await execute({ dir: import.meta.url });
