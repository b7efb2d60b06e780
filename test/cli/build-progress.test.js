// A build that takes more than a second shows its stage and operation counts on a terminal, and
// stays quiet when piped. The terminal is a real pseudo-terminal (util-linux `script`).
import t from 'tap';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { corpus, root, runMock, tmpdir } from '../helpers/cli.js';
import { plainNode } from '../helpers/plain-node.js';

const run = promisify(execFile);
// twilio: 197 operations, several seconds to build on this machine
const spec = path.join(corpus, 'openapi', 'twilio-api-v2010.json');
const bin = path.join(root, 'bin', 'run.js');
const shellWord = (word) => `'${word.replaceAll("'", "'\\''")}'`;

t.test('on a TTY: one rewritten line with the stage and the operation counts, cleared at the end', async (t) => {
  const out = tmpdir();
  const { stdout } = await run('script', ['-qec', plainNode([bin, 'build', '--spec', spec, '--out', out]).flat().map(shellWord).join(' '), '/dev/null'], { maxBuffer: 64 * 1024 * 1024 });
  t.match(stdout, /\r\x1b\[Kmock build: generating responders \d+\/197 operations \(\d+\.\d s\)/);
  t.match(stdout, /mock build: writing files/);
  t.match(stdout, /\r\x1b\[Kmock: (warning|built)/, 'the line is cleared before anything else is written');
  t.match(stdout, /mock: built twilio-api-v2010/);
});

t.test('piped: no progress at all', async (t) => {
  const result = await runMock(['build', '--spec', spec, '--out', tmpdir()]);
  t.equal(result.code, 0);
  t.notMatch(result.stdout + result.stderr, /generating responders|\x1b\[K/);
});
