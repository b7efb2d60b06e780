import type { ControlReply } from './control-types.js';
import { assetReply, pagePolicy, webBundle } from '../../files/index.js';

const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/**
 * The web dashboard at the admin server's root (and at admin.mount_path when embedded): the built
 * bundle's index.html with this process's browser token (see browser-token.ts) and a `<base>`, so
 * its relative assets resolve under the mount path. It carries the token, so it is never cached nor framed.
 */
export function dashboardPage(pagePath: string, token: string, host: string | undefined, apiDisabled: boolean): ControlReply {
  const bundle = webBundle('dashboard');
  const head = `<head><base href="${escape(pagePath)}/"><meta name="mock-admin-token" content="${escape(token)}">`;
  // said by the server, so it shows before (and without) the script
  const notice = apiDisabled ? '<body><p class="banner">The admin API is disabled (admin.disable_api, --disable-admin-api or MOCK_ADMIN_API_ENABLED=false).</p>' : '<body>';
  const body =
    bundle === null
      ? `<!doctype html><html lang="en">${head}<title>mock dashboard</title></head>${notice}<p>The dashboard bundle (dashboard/dist) is missing from this installation of mock; the admin API answers under /__mock/.</p></body></html>`
      : bundle.html.replace('<head>', head).replace('<body>', notice);
  const headers: Array<[string, string]> = [
    ['content-type', 'text/html; charset=utf-8'],
    ['cache-control', 'no-store'],
    ['content-security-policy', pagePolicy(host)],
  ];
  return { status: 200, headers, body };
}

/** `<page>/assets/<name>`: a file of the bundle, looked up by its exact name among those read at start (so nothing else, and no other path, is reachable). */
export function dashboardAsset(name: string, ifNoneMatch: string | undefined): ControlReply | undefined {
  return assetReply(webBundle('dashboard'), name, ifNoneMatch);
}
