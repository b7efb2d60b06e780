import { selfUri } from '../load/index.js';
/**
 * Path prefix a description is mounted under: its first `servers` URL's path ('' for root). A
 * relative URL resolves against `$self` where a 3.2 description gives one (3.2's rule), else
 * against the root.
 */
export function serverBasePath(document: Record<string, unknown>): string {
  const servers = document.servers;
  if (!Array.isArray(servers) || servers.length === 0) return '';
  const server = servers[0] as { url?: unknown; variables?: Record<string, { default?: unknown }> };
  if (typeof server.url !== 'string') return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => String(server.variables?.[name]?.default ?? ''));
  let pathname: string;
  try {
    pathname = new URL(url, selfUri(document) ?? 'http://placeholder').pathname;
  } catch {
    return '';
  }
  return normalizeBasePath(decodeURI(pathname).replace(/\/{2,}/g, '/'));
}

/** `/v1/` and `v1` become `/v1`; `/` becomes ''. */
export function normalizeBasePath(base: string): string {
  const trimmed = base.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
