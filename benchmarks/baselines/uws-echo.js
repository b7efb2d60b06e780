// Baseline: the least a uWebSockets.js WebSocket server can do per message, echoing it back on any
// path. The mock's WebSocket server is measured against it (benchmarks/websocket.js).
import * as uWS from 'uWebSockets.js';

uWS
  .App()
  .ws('/*', {
    compression: uWS.DISABLED,
    message: (ws, message, isBinary) => {
      ws.send(message, isBinary);
    },
  })
  .listen('127.0.0.1', 0, (socket) => {
    if (!socket) throw new Error('uws-echo: cannot listen');
    // the same readiness line as `mock serve`, so one parser serves all targets
    console.log(`serving on http://127.0.0.1:${uWS.us_socket_local_port(socket)}`);
  });
