// The README's quick start, one protocol at a time, as a newcomer types it: each `npx mock serve`
// line of a protocol's section is run (in a copy of examples/, on free ports), and the client
// lines beside it are driven against it, by curl where the README says curl.
import { execFile } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import WebSocket from 'ws';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { needsCurl, root, startCommand, tmpdir } from '../helpers/cli.js';

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const project = tmpdir();
cpSync(path.join(root, 'examples'), path.join(project, 'examples'), { recursive: true });

/** The shell lines of the first code block under `### <title>`. */
function sectionLines(title) {
  const section = readme.slice(readme.indexOf(`\n### ${title}\n`));
  const block = /```sh\n([\s\S]*?)```/.exec(section)[1];
  return block.split('\n').filter((line) => line.trim() !== '');
}

/** `npx mock serve …` of a section, without the comment, as argv. */
function serveArgs(title) {
  const line = sectionLines(title).find((l) => l.startsWith('npx mock serve '));
  return line.replace(/\s+#.*$/, '').split(/\s+/).slice(2);
}

const run = promisify(execFile);

t.test('HTTP: the README serves the petstore and its three curls get what it says', { skip: needsCurl }, async (t) => {
  const args = serveArgs('HTTP / REST');
  t.same(args, ['serve', '--spec', 'examples/petstore.yaml']);
  const server = await startCommand([...args, '--http-port', '0'], /(http:\/\/\S+:\d+)/, { cwd: project });
  t.teardown(() => server.stop());
  const port = new URL(server.url).port;
  const curls = sectionLines('HTTP / REST').filter((l) => l.startsWith('curl '));
  t.equal(curls.length, 3);
  const answers = [];
  for (const line of curls) {
    const argv = [...line.replace(/\s+#.*$/, '').matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]).slice(1);
    const withPort = argv.map((a) => a.replace('localhost:3000', `127.0.0.1:${port}`));
    const { stdout } = await run('curl', ['-s', '-i', ...withPort.filter((a) => a !== '-i')]);
    answers.push(stdout);
  }
  t.match(answers[0], /^HTTP\/1\.1 200/, 'the list');
  t.match(answers[1], /^HTTP\/1\.1 200[\s\S]*"name"/, 'the named example');
  t.match(answers[2], /^HTTP\/1\.1 400/i, 'the POST is refused');
  t.match(answers[2], /x-mock-error-detail: /i, 'saying what is wrong');
  const body = JSON.parse(answers[2].slice(answers[2].indexOf('\r\n\r\n') + 4));
  const spec = readFileSync(path.join(root, 'examples/petstore.yaml'), 'utf8');
  t.match(spec, /\n    Error:\n/, 'the description documents an Error schema');
  t.ok(typeof body.code === 'number' && typeof body.message === 'string', `the answer is in the description's Error shape: ${JSON.stringify(body)}`);
});

t.test('WebSocket: the README serves examples/websocket alone and the client gets its quotes', async (t) => {
  const args = serveArgs('WebSocket');
  t.same(args, ['serve', '-c', 'examples/websocket/mock.yaml']);
  const server = await startCommand([...args, '--ws-port', '0'], /WebSocket on (ws:\/\/\S+)/, { cwd: project });
  t.teardown(() => server.stop());
  const client = sectionLines('WebSocket').find((l) => l.includes('ws://localhost:3001/'));
  const target = /ws:\/\/localhost:3001(\/\S+)/.exec(client)[1];
  const sent = sectionLines('WebSocket').find((l) => l.startsWith('> ')).slice(2);
  const socket = new WebSocket(`${server.url.replace(/\/$/, '')}${target}`);
  const messages = [];
  await new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('message', (data) => {
      messages.push(JSON.parse(String(data)));
      if (messages.length === 1) socket.send(sent);
      if (messages.length === 2) resolve();
    });
  });
  socket.close();
  t.same(messages[0], { hello: 'ACME' }, 'the greeting names the path parameter');
  t.equal(messages[1].subscribed, 'trades', 'the subscribe message is answered from its channel');
  t.equal(messages[1].symbol, 'ACME');
  t.type(messages[1].price, 'number');
});

t.test('GraphQL: the README serves the example schema and its query is answered', async (t) => {
  const args = serveArgs('GraphQL');
  t.same(args, ['serve', '--graphql-schema', 'examples/graphql/schema.graphql']);
  const server = await startCommand([...args, '--graphql-port', '0'], /GraphQL on (http:\/\/\S+)/, { cwd: project });
  t.teardown(() => server.stop());
  const url = server.url.replace('0.0.0.0', '127.0.0.1');
  const curl = sectionLines('GraphQL').find((l) => l.startsWith('curl '));
  const query = JSON.parse(/-d '([^']+)'/.exec(curl)[1]);
  const answer = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(query) })).json();
  t.ok(answer.data.films.length > 0, 'a list of films');
  for (const film of answer.data.films) t.ok(film.title && film.director, JSON.stringify(film));
  const page = await fetch(url, { headers: { accept: 'text/html' } });
  t.equal(page.status, 200, 'a browser opening the URL gets GraphiQL');
  t.match(await page.text(), /graphiql/i);
});

t.test('gRPC: the README serves the example protos and SayHello answers', async (t) => {
  const args = serveArgs('gRPC');
  t.same(args, ['serve', '--proto-dir', 'examples/grpc/proto']);
  const server = await startCommand([...args, '--grpc-port', '0'], /gRPC on (\S+:\d+)/, { cwd: project });
  t.teardown(() => server.stop());
  const call = sectionLines('gRPC').find((l) => l.includes('buf curl'));
  t.match(call, 'greeter.v1.Greeter/SayHello');
  const definition = protoLoader.loadSync(path.join(project, 'examples/grpc/proto/greeter.proto'));
  const { Greeter } = grpc.loadPackageDefinition(definition).greeter.v1;
  const client = new Greeter(server.url.replace('0.0.0.0', '127.0.0.1'), grpc.credentials.createInsecure());
  t.teardown(() => client.close());
  const reply = await new Promise((resolve, reject) => client.SayHello(JSON.parse(/-d '([^']+)'/.exec(call)[1]), (error, answer) => (error ? reject(error) : resolve(answer))));
  t.type(reply.message, 'string');
  t.type(reply.count, 'number');
});
