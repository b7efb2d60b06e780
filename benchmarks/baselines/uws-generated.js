// Baseline: the least a uWebSockets.js server can do to serve the mock's generated `GET /v1/pets`
// answer: the build's own generator, JSON.stringify and the documented x-next header, nothing else
// (no routing, validation, logging or statistics). The mock's generated scenario cannot beat it;
// the ratio between the two is what the mock itself costs. Usage: uws-generated.js <build dir>.
import * as uWS from 'uWebSockets.js';
import { listPetsAnswer } from '../lib/petstore-build.js';

const buildDir = process.argv[2];
if (buildDir === undefined) throw new Error('uws-generated: usage: uws-generated.js <build dir of examples/petstore.yaml>');
const { ok, content } = await listPetsAnswer(buildDir);

uWS
  .App()
  .any('/*', (res) => {
    const body = JSON.stringify(content.generate(0));
    for (const [name, value] of ok.headers) res.writeHeader(name, value());
    res.writeHeader('content-type', content.type).end(body);
  })
  .listen('127.0.0.1', 0, (socket) => {
    if (!socket) throw new Error('uws-generated: cannot listen');
    console.log(`serving on http://127.0.0.1:${uWS.us_socket_local_port(socket)}`);
  });
