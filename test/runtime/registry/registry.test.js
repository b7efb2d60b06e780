// runtime/control/registry: every protocol server lists itself once, and the admin API reads only that.
import t from 'tap';
import { ServerRegistry } from '../../../dist/runtime/control/registry/index.js';
import { systemRoutes } from '../../../dist/runtime/control/admin/endpoints/system.js';

const server = (kind, address, running) => ({
  kind,
  info: () => ({ server_type: kind, address, running, start_time: null, uptime_seconds: 0, active_connections: null, total_requests: 7 }),
});

const IDLE = { in_progress: false, initiated_at: null, reason: null, success: null, completed_at: null, error: null };

/** Calls a system endpoint the way the admin router does, with only what it reads. */
function call(registry, path) {
  const route = systemRoutes.find((r) => r.path === path);
  const reply = route.handler({ ctx: { registry, servers: { restartStatus: () => IDLE } } });
  const body = JSON.parse(reply.body);
  return path === 'health' ? body : body.data;
}

t.test('servers register, list, and leave', async (t) => {
  const registry = new ServerRegistry();
  t.same(registry.list(), []);
  t.same(registry.services(), { http: 'disabled', websocket: 'disabled', grpc: 'disabled', graphql: 'disabled' });

  registry.add(server('HTTP', '127.0.0.1:3000', true));
  const leave = registry.add(server('WebSocket', '127.0.0.1:3001', false));
  t.same(
    registry.list().map((s) => s.server_type),
    ['HTTP', 'WebSocket'],
  );
  t.same(registry.services(), { http: 'running', websocket: 'stopped', grpc: 'disabled', graphql: 'disabled' });
  leave();
  t.same(registry.services(), { http: 'running', websocket: 'disabled', grpc: 'disabled', graphql: 'disabled' });
});

t.test('a running server of a kind is found before a stopped one', async (t) => {
  const registry = new ServerRegistry();
  registry.add(server('gRPC', '127.0.0.1:50051', false));
  registry.add(server('gRPC', '127.0.0.1:50052', true));
  t.equal(registry.find('gRPC').address, '127.0.0.1:50052');
  t.equal(registry.find('HTTP'), undefined);
});

t.test('server-info and health show whatever registered, with no admin change', async (t) => {
  const registry = new ServerRegistry();
  registry.add(server('HTTP', '127.0.0.1:3000', true));
  registry.add(server('WebSocket', '127.0.0.1:3001', true));
  registry.add(server('gRPC', '127.0.0.1:50051', false));

  t.same(call(registry, 'server-info'), { http_server: '127.0.0.1:3000', ws_server: '127.0.0.1:3001', grpc_server: null });
  const health = call(registry, 'health');
  t.equal(health.status, 'degraded');
  t.same(health.services, { http: 'running', websocket: 'running', grpc: 'stopped', graphql: 'disabled' });
  t.same(health.issues, ['gRPC server on 127.0.0.1:50051 is not running']);
});
