// A server whose stdout is a pipe nobody reads (a process manager that stopped draining it) holds
// at most a bounded backlog of log lines, then drops them, instead of growing without end.
import t from 'tap';
import { spawn } from 'node:child_process';

const LINES = 300_000;
const script = `
import { createLogger } from './dist/src/logging/index.js';
const logger = createLogger({ level: 'info', format: 'json', file: 'stdout' });
const before = process.memoryUsage().rss;
const filler = 'x'.repeat(1000);
for (let i = 0; i < ${LINES}; i++) logger.info({ filler }, 'line');
await new Promise((resolve) => setTimeout(resolve, 200));
process.stderr.write(JSON.stringify({ grownMb: (process.memoryUsage().rss - before) / 2 ** 20 }) + '\\n');
process.exit(0);
`;

t.test('log lines for an unread stdout are dropped past a bounded backlog', async (t) => {
  // stdout is a pipe this test never reads: once the kernel's pipe buffer is full, nothing drains it
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('../..', import.meta.url), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pause();
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
    // measured: now let the child flush what it kept and exit
    if (stderr.includes('grownMb')) child.stdout.resume();
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.equal(code, 0, stderr);
  const { grownMb } = JSON.parse(stderr.trim().split('\n').at(-1));
  // ${LINES} lines of about 1 KB: about 300 MB would be held without the bound
  t.ok(grownMb < 100, `the process grew by ${grownMb.toFixed(0)} MB while writing ~${(LINES / 1000).toFixed(0)} MB of lines nobody read`);
});
