// A description's regular expressions run in linear time, or not at all. Regression: a `pattern`
// with a lookahead ran on JavaScript's backtracking engine against request data (30 characters
// took 11.6 s and stalled every other client), and a failing example hung the build.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runMock, startMock } from '../helpers/cli.js';

const LOOKAHEAD = '^(?=a)(a+)+$';
const NESTED = '^(a+)+$';
const SLOW = `${'a'.repeat(34)}!`;

const description = `openapi: 3.0.3
info: {title: patterns, version: "1"}
paths:
  /look:
    get:
      parameters:
        - {name: code, in: query, required: true, schema: {type: string, pattern: ${JSON.stringify(LOOKAHEAD)}, example: ${JSON.stringify(SLOW)}}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: string, pattern: ${JSON.stringify(LOOKAHEAD)}}
              example: ${JSON.stringify(SLOW)}
  /nested:
    get:
      parameters:
        - {name: code, in: query, required: true, schema: {type: string, pattern: ${JSON.stringify(NESTED)}}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: string, pattern: ${JSON.stringify(NESTED)}, example: ${JSON.stringify(SLOW)}}
  /health:
    get:
      responses:
        "200": {description: ok, content: {application/json: {example: {ok: true}}}}
`;

const dir = t.testdir({ 'api.yaml': description });

t.test('the build is quick, warns about the pattern it cannot run in linear time, and is deterministic', async (t) => {
  const started = performance.now();
  const built = await runMock(['build', '--spec', 'api.yaml'], { cwd: dir, timeoutMs: 60_000 });
  const seconds = (performance.now() - started) / 1000;
  t.equal(built.code, 0, built.stderr);
  t.ok(seconds < 20, `built in ${seconds.toFixed(1)} s`);
  const warnings = built.stderr.split('\n').filter((line) => line.startsWith('mock: warning:'));
  t.equal(warnings.filter((line) => line.includes(JSON.stringify(LOOKAHEAD))).length, 2, `one warning per schema: ${built.stderr}`);
  t.match(built.stderr, `mock: warning: api.yaml#/paths/~1look/get/parameters/0/schema: the pattern ${JSON.stringify(LOOKAHEAD)} uses a lookahead`);
  t.match(built.stderr, 'it is not enforced');
  t.notMatch(built.stderr, JSON.stringify(NESTED), 'a pattern RE2 runs is kept, without a warning');
  t.notMatch(readFileSync(path.join(dir, 'generated', 'api', 'validators.js'), 'utf8'), '(?=a)', 'nothing of it reaches the validators');
  const check = await runMock(['build', '--check', '--spec', 'api.yaml'], { cwd: dir });
  t.equal(check.code, 0, `a second build gives the same bytes: ${check.stderr}`);
});

t.test('requests that backtrack exponentially are answered at once, and other clients are not stalled', async (t) => {
  const server = await startMock(['--spec', 'api.yaml', '--validation', 'enforce'], { cwd: dir });
  t.teardown(() => server.stop());
  const timed = async (url) => {
    const started = performance.now();
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  };
  const [look, nested, health] = await Promise.all([
    timed(`${server.url}/look?code=${SLOW}`),
    timed(`${server.url}/nested?code=${SLOW}`),
    timed(`${server.url}/health`),
  ]);
  t.equal(look.status, 200, 'the lookahead pattern is not enforced');
  t.equal(nested.status, 400, 'the nested quantifier is enforced, in linear time');
  t.equal(health.status, 200);
  for (const [name, answer] of Object.entries({ look, nested, health })) t.ok(answer.ms < 1000, `${name} answered in ${Math.round(answer.ms)} ms`);
  t.equal((await timed(`${server.url}/nested?code=aaaa`)).status, 200, 'a matching value passes');
});
