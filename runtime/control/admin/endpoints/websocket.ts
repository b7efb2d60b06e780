import { AdminError, ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';

/** The WebSocket server: its address, library, settings, and sessions and messages per path (docs/websocket.md). */
export const websocketRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'websocket',
    handler: ({ ctx }) => {
      const details = ctx.registry.details('WebSocket');
      if (details === undefined) throw new AdminError(404, 'no WebSocket server runs: start one with --ws-port, MOCK_WS_PORT, server.ws_port or a websocket section in mock.yaml (websocket.routes, websocket.replay_file)');
      return ok(details);
    },
  },
];
