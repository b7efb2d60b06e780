import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One file of the built dashboard, held in memory: the bundle is small and read once. */
export interface BundleFile {
  body: string;
  type: string;
  etag: string;
}

export interface DashboardBundle {
  /** dashboard/dist/index.html, before the token and base are put in. */
  html: string;
  /** Files of dashboard/dist/assets by name: the only ones served. */
  assets: ReadonlyMap<string, BundleFile>;
}

/** What Vite writes for the dashboard; a file of another kind in the folder is not served. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * `dashboard/dist` next to package.json, found by walking up from this module (dist/runtime/…
 * once compiled), so it works from a checkout and from the installed package.
 */
function distFolder(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'dashboard', 'dist');
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(candidate, 'index.html'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

let loaded: DashboardBundle | null | undefined;

/** The built dashboard, read once (when an admin API with a page is made); null when the package lacks it (the page then says so). */
export function dashboardBundle(): DashboardBundle | null {
  if (loaded !== undefined) return loaded;
  const dist = distFolder(path.dirname(fileURLToPath(import.meta.url)));
  if (dist === undefined) return (loaded = null);
  const assets = new Map<string, BundleFile>();
  const folder = path.join(dist, 'assets');
  for (const name of existsSync(folder) ? readdirSync(folder) : []) {
    const type = TYPES[path.extname(name)];
    if (type === undefined) continue;
    const body = readFileSync(path.join(folder, name), 'utf8');
    assets.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  }
  return (loaded = { html: readFileSync(path.join(dist, 'index.html'), 'utf8'), assets });
}
