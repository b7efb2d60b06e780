// Baseline: the least a node:http server can do per request, for scale against uWS.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' }).end('Hello World!');
});
server.listen(0, '127.0.0.1', () => {
  // the same readiness line as `mock serve`, so one parser serves all targets
  console.log(`serving on http://127.0.0.1:${server.address().port}`);
});
