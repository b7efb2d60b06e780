import { MockError } from '../../../common/errors.js';
import type { TlsOptions } from '../../../runtime/index.js';
import type { ResolvedConfig, TlsConfig } from '../../config/index.js';
import { loadTls } from './load.js';
import { selfSignedCertificate, trustAdvice } from './self-signed.js';

/** Each server's TLS; absent: plain. */
export interface ServersTls {
  http?: TlsOptions;
  admin?: TlsOptions;
  metrics?: TlsOptions;
  websocket?: TlsOptions;
  graphql?: TlsOptions;
  grpc?: TlsOptions;
}

type Block = TlsConfig | false | undefined;

/**
 * server.tls for every server, and each server's own tls key over it: absent, server.tls; false,
 * plain; a block, that block whole. Self-signed blocks share the project's one certificate, made
 * on first use (`say` prints how to trust it then).
 */
export async function serversTls({ config, projectDir }: ResolvedConfig, say: (line: string) => void = () => {}): Promise<ServersTls> {
  const base = config.server.tls;
  const blocks: Record<keyof ServersTls, [string, Block]> = {
    http: ['server.tls', base],
    admin: config.admin.tls === undefined ? ['server.tls', base] : ['admin.tls', config.admin.tls],
    metrics: config.metrics.tls === undefined ? ['server.tls', base] : ['metrics.tls', config.metrics.tls],
    websocket: config.websocket.tls === undefined ? ['server.tls', base] : ['websocket.tls', config.websocket.tls],
    graphql: config.graphql.tls === undefined ? ['server.tls', base] : ['graphql.tls', config.graphql.tls],
    grpc: config.grpc.tls === undefined ? ['server.tls', base] : ['grpc.tls', config.grpc.tls],
  };
  const loaded = new Map<string, TlsOptions | undefined>();
  const result: ServersTls = {};
  for (const [server, [at, block]] of Object.entries(blocks) as Array<[keyof ServersTls, [string, Block]]>) {
    if (!loaded.has(at)) loaded.set(at, await resolveBlock(at, block, projectDir, say));
    const tls = loaded.get(at);
    if (tls !== undefined) result[server] = tls;
  }
  return result;
}

async function resolveBlock(at: string, block: Block, projectDir: string, say: (line: string) => void): Promise<TlsOptions | undefined> {
  if (block === undefined || block === false) return undefined;
  const { cert, key, self_signed: selfSigned } = block;
  if (cert !== undefined && key !== undefined) return loadTls({ at, certFile: cert, keyFile: key, config: block });
  if (cert !== undefined || key !== undefined) {
    const missing = cert === undefined ? `${at}.cert (--tls-cert, MOCK_TLS_CERT)` : `${at}.key (--tls-key, MOCK_TLS_KEY)`;
    throw new MockError('MOCK_ERR_TLS_CONFIG', `${at} has ${cert === undefined ? 'a key' : 'a certificate'} without ${missing}: give both, or neither with --tls-self-signed`);
  }
  if (selfSigned === false) return undefined;
  if (selfSigned !== true)
    throw new MockError('MOCK_ERR_TLS_CONFIG', `${at} has neither cert and key nor self_signed: give ${at}.cert and ${at}.key, or set ${at}.self_signed: true (--tls-self-signed)`);
  const made = await selfSignedCertificate(projectDir);
  if (made.made) for (const line of trustAdvice(made.certFile)) say(line);
  return loadTls({ at, certFile: made.certFile, keyFile: made.keyFile, config: block });
}
