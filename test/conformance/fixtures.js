// A tiny description shared by the conformance tests, and a deliberately broken node:http server
// implementing it (see broken-server.test.js for what it gets wrong, on purpose).
import http from 'node:http';

export const BROKEN_SPEC = `openapi: 3.0.3
info: { title: Broken items, version: 1.0.0 }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: limit, in: query, required: true, schema: { type: integer, minimum: 1, maximum: 10 } }
      responses:
        '200':
          description: items
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Item' } }
    post:
      operationId: createItem
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewItem' }
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Item' }
  /items/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: integer, minimum: 1 } }
    get:
      operationId: getItem
      security: [{ bearer: [] }]
      responses:
        '200':
          description: the item
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Item' }
    delete:
      operationId: deleteItem
      responses:
        '204': { description: deleted }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
  schemas:
    NewItem:
      type: object
      additionalProperties: false
      required: [name]
      properties:
        name: { type: string, minLength: 1, maxLength: 20 }
        qty: { type: integer, minimum: 0 }
    Item:
      type: object
      required: [id, name]
      properties:
        id: { type: integer }
        name: { type: string }
        qty: { type: integer }
`;

export const GOOD_TOKEN = 'good-token';

/**
 * What the server gets wrong, on purpose:
 * - POST /items crashes (500) on a JSON body that is not an object, and on a name with a quote
 *   (an "SQL error" that echoes markup, to check the HTML report escapes it);
 * - POST /items never checks qty and accepts unknown properties;
 * - GET /items/{id} crashes (500) on a non-numeric id, and answers with a string id (its schema says integer);
 * - DELETE /items/{id} is not implemented (405): a valid request rejected.
 * Everything else is validated and rejected with problem bodies naming the location, like `mock serve`'s.
 */
export function startBrokenServer() {
  const seen = { requests: 0, withoutRunHeader: 0, longestUrl: 0 };
  const problem = (res, status, errors, extra = {}) => {
    res.writeHead(status, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ title: 'Bad request', status, errors, ...extra }));
  };
  const server = http.createServer((req, res) => {
    seen.requests++;
    if (req.headers['x-conformance-run'] !== 'broken-1') seen.withoutRunHeader++;
    seen.longestUrl = Math.max(seen.longestUrl, req.url.length);
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.url.length > 8192) return problem(res, 414, []);
      const url = new URL(req.url, 'http://x');
      const item = /^\/items\/([^/]+)$/.exec(url.pathname);
      if (url.pathname === '/items' && req.method === 'GET') {
        const limit = url.searchParams.get('limit');
        if (limit === null) return problem(res, 400, [{ location: 'query', message: "query parameter 'limit' is required" }]);
        if (!/^\d+$/.test(limit) || +limit < 1 || +limit > 10) return problem(res, 400, [{ location: 'query', message: "query parameter 'limit' must be 1-10" }]);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify([{ id: 1, name: 'one' }]));
      }
      if (url.pathname === '/items' && req.method === 'POST') {
        if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return problem(res, 415, []);
        let value;
        try {
          value = JSON.parse(body);
        } catch {
          return problem(res, 400, [{ location: 'body', message: 'body is not JSON' }]);
        }
        if (value === null || typeof value !== 'object' || Array.isArray(value)) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          return res.end(`TypeError: cannot read properties of ${JSON.stringify(value)}`);
        }
        if (typeof value.name !== 'string' || value.name.length < 1 || value.name.length > 20) {
          return problem(res, 400, [{ location: 'body', message: 'name must be a string of 1-20 characters' }]);
        }
        if (value.name.includes("'")) {
          res.writeHead(500, { 'content-type': 'text/html' });
          return res.end(`<b>SQL error</b> near ${value.name}<script>window.__pwned = 1</script>`);
        }
        res.writeHead(201, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ id: 7, name: value.name, qty: value.qty }));
      }
      if (item && req.method === 'GET') {
        if (req.headers.authorization !== `Bearer ${GOOD_TOKEN}`) return problem(res, 401, []);
        const id = Number.parseInt(item[1], 10);
        if (Number.isNaN(id)) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          return res.end('id is NaN');
        }
        if (id < 1) return problem(res, 400, [{ location: 'path', message: "path parameter 'id' must be >= 1" }]);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ id: String(id), name: 'string id' }));
      }
      if (item && req.method === 'DELETE') return problem(res, 405, []);
      return problem(res, 404, []);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        seen,
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}
