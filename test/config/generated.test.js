import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const script = fileURLToPath(new URL('../../scripts/gen-config-types.js', import.meta.url));

t.test('types and validator are fresh: generated from the schema as it is', async (t) => {
  const { status, stderr } = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  t.equal(stderr, '', 'no stale file (run npm run gen:config-types)');
  t.equal(status, 0);
});
