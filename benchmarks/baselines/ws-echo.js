// Baseline: an echo server on the `ws` package, what the mock's WebSocket server runs on where
// uWebSockets.js has no build for the running Node (benchmarks/websocket.js reports it as a row).
import { WebSocketServer } from 'ws';

// no `path`: every path upgrades, as in the mock; no compression, as in the uWS baseline
const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
server.on('connection', (socket) => {
  socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
});
server.on('listening', () => {
  // the same readiness line as `mock serve`, so one parser serves all targets
  console.log(`serving on http://127.0.0.1:${server.address().port}`);
});
