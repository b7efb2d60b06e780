import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageFile } from '../../common/package-root.js';

/** One file of a built page, held in memory: the bundles are small and read once. */
export interface BundleFile {
  body: string;
  type: string;
  etag: string;
}

/** A page Vite built into `<name>/dist` (the web dashboard, GraphiQL). */
export interface WebBundle {
  /** dist/index.html, before the server puts in what it adds (a base, a token). */
  html: string;
  /** Files of dist/assets by name: the only ones served. */
  assets: ReadonlyMap<string, BundleFile>;
}

/** What Vite writes for the pages; a file of another kind in the folder is not served. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** `<name>/dist` next to package.json, in a checkout and in the installed package; undefined when not built. */
function distFolder(name: string): string | undefined {
  const folder = packageFile(path.join(name, 'dist'));
  return existsSync(path.join(folder, 'index.html')) ? folder : undefined;
}

const loaded = new Map<string, WebBundle | null>();

/** The page built into `<name>/dist`, read once; null when the package lacks it (the server then says so). */
export function webBundle(name: 'dashboard' | 'graphiql'): WebBundle | null {
  const known = loaded.get(name);
  if (known !== undefined) return known;
  const dist = distFolder(name);
  let bundle: WebBundle | null = null;
  if (dist !== undefined) {
    const assets = new Map<string, BundleFile>();
    const folder = path.join(dist, 'assets');
    for (const file of existsSync(folder) ? readdirSync(folder) : []) {
      const type = TYPES[path.extname(file)];
      if (type === undefined) continue;
      const body = readFileSync(path.join(folder, file), 'utf8');
      assets.set(file, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
    }
    bundle = { html: readFileSync(path.join(dist, 'index.html'), 'utf8'), assets };
  }
  loaded.set(name, bundle);
  return bundle;
}

/** A Host header fit to go into the policy (the server's Host guard, where it has one, has run; this keeps stray characters out of the header). */
const HOST = /^[A-Za-z0-9.:[\]-]+$/;

/**
 * The policy a built page is served under: scripts and styles only from the page's own files (no
 * inline script, no eval), requests and streams to this host only; never framed.
 */
export function pagePolicy(host: string | undefined): string {
  const sockets = host !== undefined && HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    `connect-src 'self'${sockets}`,
    "img-src 'self' data:",
    "style-src 'self'",
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** What answers `assets/<name>` of a bundle: the file (revalidated by ETag, since names carry no hash), 304, or undefined when it has no such file. */
export function assetReply(bundle: WebBundle | null, name: string, ifNoneMatch: string | undefined): { status: number; headers: Array<[string, string]>; body: string } | undefined {
  const file = bundle?.assets.get(name);
  if (file === undefined) return undefined;
  const headers: Array<[string, string]> = [
    ['cache-control', 'no-cache'],
    ['etag', file.etag],
    ['x-content-type-options', 'nosniff'],
  ];
  if (ifNoneMatch === file.etag) return { status: 304, headers, body: '' };
  return { status: 200, headers: [['content-type', file.type], ...headers], body: file.body };
}
