// `mock bench` validates a sample of the plain answers it gets under load: the real CLI against a
// `mock serve` of a corpus description (every answer fits) and against a node:http server that
// answers some operations wrongly (a body missing a required property, an HTML error page).
import t from 'tap';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { corpus, runMock, startMock, tmpdir } from '../helpers/cli.js';

const swagger = path.join(corpus, 'openapi/swagger-petstore-v3.yaml');
const bench = (url, ...args) => runMock(['bench', '--spec', swagger, '--target', url, '--workers', '1', '--vus', '4', '--duration', '1', ...args], { timeoutMs: 60_000 });
const byOperation = (report, operationId) => report.targets[0].operations.find((op) => op.operationId === operationId);

t.test('against a mock of the description, the sampled answers fit it; --no-sample-answers samples none', async (t) => {
  const server = await startMock(['--spec', swagger, '--out', tmpdir()]);
  t.teardown(() => server.stop());
  const out = path.join(tmpdir(), 'report.json');
  const res = await bench(server.url, '--output', out);
  t.equal(res.code, 0, res.stderr);
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const sample = report.summary.answerSample;
  t.ok(sample.answersChecked > 0, `answers sampled and checked (${sample.answersChecked})`);
  t.equal(sample.mismatches, 0, `none does not fit: ${sample.firstMismatch}`);
  t.same(report.targets[0].answerSample, sample, 'the target adds them up as the summary does');
  for (const op of report.targets[0].operations) t.ok(op.answerSample.answersChecked > 0 && op.answerSample.mismatches === 0, `${op.operation}: sampled answers fit`);
  t.equal(
    report.targets[0].operations.reduce((sum, op) => sum + op.answerSample.answersChecked, 0),
    sample.answersChecked,
    'the operations add up to the summary',
  );
  t.ok(byOperation(report, 'getPetById').answerSample.bodiesNotChecked === 0, 'JSON bodies are checked');
  t.match(byOperation(report, 'loginUser').answerSample, { bodiesNotChecked: Number, firstBodyNotChecked: /application\/xml bodies are not checked/ }, 'an XML body is said not to be checked');
  t.match(
    res.stdout,
    new RegExp(`answers +${sample.answersChecked.toLocaleString('en-US')} sampled answers fit the description \\(\\d+ bodies not checked: application/xml`),
    'the text report says so',
  );
  t.match(res.stdout, /getPetById \(GET \/api\/v3\/pet\/\{petId\}\) +\d+ +0 +0/, 'and has a row per operation');

  const off = await bench(server.url, '--no-sample-answers', '--json', '--operations', 'getInventory');
  t.equal(off.code, 0, off.stderr);
  const plain = JSON.parse(off.stdout);
  t.equal(plain.summary.answerSample, undefined, '--no-sample-answers: no sample');
  t.equal(plain.settings.sampleAnswers, false, 'and the settings say so');
  t.notMatch(off.stdout, /sampled answers/);
});

/** Answers the inventory as documented, a pet without its required photoUrls, and deleting an order with an HTML error page. */
async function wrongServer(t) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'DELETE') {
        res.writeHead(503, { 'content-type': 'text/html' });
        return res.end('<html><body>overloaded</body></html>');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url.startsWith('/api/v3/pet/') ? '{"id":1,"name":"rex"}' : '{"available":3}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${server.address().port}`;
}

t.test('answers that do not fit the description are reported, with the first mismatch, in the text and the JSON report', async (t) => {
  const url = await wrongServer(t);
  const out = path.join(tmpdir(), 'report.json');
  const res = await bench(url, '--operations', 'getInventory,getPetById,deleteOrder', '--output', out);
  t.equal(res.code, 0, res.stderr);
  const report = JSON.parse(readFileSync(out, 'utf8'));

  const inventory = byOperation(report, 'getInventory').answerSample;
  t.ok(inventory.answersChecked > 0 && inventory.mismatches === 0, 'the answers that fit are not counted as mismatches');
  const pet = byOperation(report, 'getPetById').answerSample;
  t.ok(pet.answersChecked > 0 && pet.mismatches === pet.answersChecked, `every sampled pet does not fit (${pet.mismatches})`);
  t.match(pet.firstMismatch, /^200 application\/json "\{\\"id\\":1,\\"name\\":\\"rex\\"\}": body must have property 'photoUrls'/, 'the first mismatch: the answer and why');
  const order = byOperation(report, 'deleteOrder').answerSample;
  t.ok(order.answersChecked > 0 && order.mismatches === order.answersChecked, 'every sampled error page does not fit');
  t.match(order.firstMismatch, /^503 text\/html "<html>.*": a body where default documents none/);

  const sample = report.summary.answerSample;
  t.equal(sample.mismatches, pet.mismatches + order.mismatches, 'the summary adds the mismatches up');
  t.equal(sample.answersChecked, inventory.answersChecked + pet.answersChecked + order.answersChecked);
  const verdict = /answers +([\d,]+) of ([\d,]+) sampled answers do NOT fit: (.*)/.exec(res.stdout);
  t.ok(verdict, `the text report says they do not fit:\n${res.stdout}`);
  t.same([Number(verdict[1].replace(/,/g, '')), Number(verdict[2].replace(/,/g, ''))], [sample.mismatches, sample.answersChecked], 'with the numbers of the JSON report');
  t.equal(verdict[3], sample.firstMismatch, 'and its first mismatch');
  t.match(res.stdout, /GET \/api\/v3\/pet\/\{petId\}: first mismatch: 200 application\/json .*photoUrls/, 'the operation and its first mismatch');
  t.match(res.stdout, /DELETE \/api\/v3\/store\/order\/\{orderId\}: first mismatch: 503 text\/html/);
});
