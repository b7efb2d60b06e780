// Baseline: the least a uWebSockets.js server can do per request. The mock is measured against it.
import * as uWS from 'uWebSockets.js';

uWS
  .App()
  .any('/*', (res) => {
    res.writeHeader('content-type', 'text/plain').end('Hello World!');
  })
  .listen('127.0.0.1', 0, (socket) => {
    if (!socket) throw new Error('uws-hello: cannot listen');
    // the same readiness line as `mock serve`, so one parser serves all targets
    console.log(`serving on http://127.0.0.1:${uWS.us_socket_local_port(socket)}`);
  });
