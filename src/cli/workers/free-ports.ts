import net from 'node:net';
import type { ResolvedConfig } from '../../config/index.js';

/** The ports every worker binds with SO_REUSEPORT: each must be the same number, so port 0 (any free port) is chosen once, here. */
const SHARED_PORTS = ['http_port', 'ws_port', 'graphql_port'] as const;

/** A free port on `host`, as the kernel picks one for port 0. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The configuration with each shared port set to 0 replaced by a free port, which every worker is given. */
export async function withFreePorts(resolved: ResolvedConfig): Promise<ResolvedConfig> {
  const server = { ...resolved.config.server };
  for (const key of SHARED_PORTS) if (server[key] === 0) server[key] = await freePort(server.bind);
  return { ...resolved, config: { ...resolved.config, server } };
}
