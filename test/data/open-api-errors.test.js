// `mock data open-api` on bad input: one line naming the flag or file, non-zero exit, nothing on stdout.
import t from 'tap';
import { runData } from './helpers.js';

const PETSTORE = 'examples/petstore.yaml';

t.test('bad input: one line naming the flag or file, non-zero exit', async (t) => {
  const cases = [
    [['--spec', PETSTORE, '--endpoint', '/petz'], /^--endpoint \/petz: no such path in examples\/petstore\.yaml \(closest: \/pets \(GET, POST\)/],
    [['--spec', PETSTORE, '--endpoint', '/pets', '--method', 'delete'], /^--method delete: \/pets in examples\/petstore\.yaml has no DELETE operation \(documented: GET, POST\)$/],
    [['--spec', PETSTORE, '--endpoint', '/pets', '--status', '418'], /^--status 418: GET \/pets in examples\/petstore\.yaml documents 200, default \(pick one of them\)$/],
    [['--spec', PETSTORE, '--endpoint', '/pets/{petId}', '--method', 'delete'], /response 204 has no body to generate \(pick another --status: 204\)$/],
    [['--spec', PETSTORE, '--endpoint', '/pets', '--mode', 'request'], /^--mode request: GET \/pets in examples\/petstore\.yaml has no request body/],
    [['--spec', PETSTORE, '--endpoint', '/pets/1', '--media-type', 'text/csv'], /^--media-type text\/csv: GET \/pets\/\{petId\} response 200 documents application\/json, application\/xml/],
    [['--spec', PETSTORE, '--endpoint', '/pets', '--format', 'xml'], /--format.*json, yaml, csv/],
    [['--spec', PETSTORE, '--endpoint', '/pets', '--count', '0'], /--count/],
    [['--spec', PETSTORE, '--endpoint', '/pets', '--now', 'yesterday'], /^--now: not an ISO 8601 timestamp: "yesterday"/],
    [['--spec', 'missing.yaml', '--endpoint', '/pets'], /^spec not found: missing\.yaml \(checked .*missing\.yaml; pass an existing file or URL with --spec\)$/],
    [['--endpoint', '/pets'], /Missing required flag spec/],
  ];
  const results = await Promise.all(cases.map(([args]) => runData(['open-api', ...args])));
  cases.forEach(([args, message], i) => {
    const res = results[i];
    t.not(res.code, 0, `${args.join(' ')} fails`);
    t.equal(res.stdout, '', 'prints nothing to stdout');
    const lines = res.stderr.trim().split('\n');
    t.equal(lines.length, 1, `one line: ${res.stderr}`);
    t.match(lines[0], message);
  });
  const env = await runData(['open-api', '--spec', PETSTORE, '--endpoint', '/pets'], { env: { MOCK_SEED: 'abc' } });
  t.equal(env.code, 1);
  t.equal(env.stderr.trim(), 'MOCK_SEED: expected integer, got "abc" (unset it or pass --seed <int>)');
});
