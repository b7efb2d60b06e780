// What the reality-continuum tests share: a small description whose answers the tests can tell
// apart field by field (the mock answers its examples, the upstream other values of the same
// schemas), an upstream on loopback that answers them, and many requests over keep-alive
// connections at once.
import http from 'node:http';

const UUID = { mock: '11111111-1111-4111-8111-111111111111', upstream: '22222222-2222-4222-8222-222222222222' };
const OWNER = { mock: '33333333-3333-4333-8333-333333333333', upstream: '44444444-4444-4444-8444-444444444444' };

/** The item each side answers: every field differs, numbers included. */
export const ITEMS = {
  mock: { id: UUID.mock, status: 'active', count: 1, score: 0.25, name: 'from the mock', owner: { id: OWNER.mock, level: 'gold' }, tags: ['m1', 'm2'] },
  upstream: { id: UUID.upstream, status: 'retired', count: 7, score: 0.75, name: 'from the upstream', owner: { id: OWNER.upstream, level: 'silver' }, tags: ['u1', 'u2'] },
};
export const FIELD_COUNT = 10;
const fields = (value) => Object.fromEntries(Array.from({ length: FIELD_COUNT }, (_, i) => [`f${i}`, value]));

export const ITEM_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'count', 'score', 'name', 'owner', 'tags'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: ['active', 'retired'] },
    count: { type: 'integer', minimum: 0 },
    score: { type: 'number', minimum: 0, maximum: 1 },
    name: { type: 'string' },
    owner: { type: 'object', additionalProperties: false, required: ['id', 'level'], properties: { id: { type: 'string', format: 'uuid' }, level: { type: 'string', enum: ['gold', 'silver'] } } },
    tags: { type: 'array', maxItems: 2, items: { type: 'string' } },
  },
};

const json = (value) => JSON.stringify(value);

/** GET /r/{area}/{id} answers an Item, /fields/{id} ten enum fields, /text/{id} plain text. */
export const CONTINUUM_SPEC = `openapi: 3.0.3
info: { title: continuum, version: 1.0.0 }
paths:
  /r/{area}/{id}:
    get:
      parameters:
        - { name: area, in: path, required: true, schema: { type: string } }
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: an item
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Item' }
              example: ${json(ITEMS.mock)}
  /fields/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: fields
          content:
            application/json:
              schema: { type: object, properties: ${json(fields({ type: 'string', enum: ['mock', 'upstream'] }))} }
              example: ${json(fields('mock'))}
  /text/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: text
          content:
            text/plain:
              schema: { type: string }
              example: from the mock
components:
  schemas:
    Item: ${json(ITEM_SCHEMA)}
`;

/**
 * The upstream: /r/flaky/* 503, /gone/fail 500, /gone/* {gone: upstream}, /fields/* every field
 * "upstream", /text/* text, anything else the upstream's Item. Keeps the paths it was asked.
 */
export async function startUpstream(t) {
  const asked = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url);
    const send = (status, type, body) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (req.url.startsWith('/r/flaky/')) send(503, 'application/json', json({ error: 'flaky' }));
    else if (req.url === '/gone/fail') send(500, 'application/json', json({ error: 'gone' }));
    else if (req.url.startsWith('/gone/')) send(200, 'application/json', json({ gone: 'upstream' }));
    else if (req.url.startsWith('/fields/')) send(200, 'application/json', json(fields('upstream')));
    else if (req.url.startsWith('/text/')) send(200, 'text/plain', 'from the upstream');
    else send(200, 'application/json', json(ITEMS.upstream));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${server.address().port}`, asked };
}

/**
 * GETs every URL, `concurrency` at a time over keep-alive connections; resolves with
 * {status, source (X-Mock-Source), body (text)} in the order of `urls`.
 */
export async function getMany(urls, concurrency = 32) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const results = new Array(urls.length);
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const i = next++;
      results[i] = await new Promise((resolve, reject) => {
        http
          .get(urls[i], { agent }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode, source: res.headers['x-mock-source'], body }));
          })
          .on('error', reject);
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return results;
}
