// Operations whose path keys carry a query (`/?Action=CreateQueue`, or `/#Action=…` as converted
// AWS descriptions write it) are routed by that query through `mock serve`.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMock, tmpdir } from '../helpers/cli.js';

const answer = (name) => ({ 200: { description: name, content: { 'application/json': { example: { action: name } } } } });
const queueName = { name: 'QueueName', in: 'query', required: true, schema: { type: 'string', minLength: 1 } };
const description = {
  openapi: '3.0.3',
  info: { title: 'queues', version: '1' },
  paths: {
    '/?Action=CreateQueue': { get: { parameters: [queueName], responses: answer('CreateQueue') } },
    '/#Action=DeleteQueue': { get: { parameters: [queueName], responses: answer('DeleteQueue') } },
    '/?Action=ListQueues&Version=2012-11-05': { get: { responses: answer('ListQueues') } },
    '/': { get: { responses: answer('root') } },
  },
};

const dir = tmpdir();
writeFileSync(path.join(dir, 'sqs.json'), JSON.stringify(description));
const server = await startMock(['--spec', path.join(dir, 'sqs.json'), '--out', path.join(dir, 'out'), '--admin-embed']);
t.teardown(() => server.stop());
const get = async (target) => {
  const res = await fetch(server.url + target);
  return { status: res.status, body: await res.json() };
};

t.test('the query in the path key picks the operation', async (t) => {
  t.same(await get('/?Action=CreateQueue&QueueName=q'), { status: 200, body: { action: 'CreateQueue' } });
  t.same(await get('/?QueueName=q&Action=DeleteQueue'), { status: 200, body: { action: 'DeleteQueue' } }, '# keys too; any order');
  t.same(await get('/?Action=ListQueues&Version=2012-11-05'), { status: 200, body: { action: 'ListQueues' } });
  t.same(await get('/?Action=ListQueues'), { status: 200, body: { action: 'root' } }, 'every demanded value must be there');
  t.same(await get('/'), { status: 200, body: { action: 'root' } }, 'no query: the plain operation');
  t.equal((await get('/?Action=CreateQueue')).status, 400, "the operation's own parameters are still validated");
  const stats = await (await fetch(`${server.url}/__mock/metrics`)).json();
  t.ok(JSON.stringify(stats).includes('GET /?Action=CreateQueue'), 'statistics count them under keys that keep their query');
});
