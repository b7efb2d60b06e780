import type { ControlReply } from './control-types.js';
import type { AdminRoute } from './router.js';

const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/**
 * The page at the admin server's root (and at admin.mount_path when embedded): the endpoint list,
 * GET endpoints as links. The web dashboard replaces it. It carries the browser token (see
 * browser-token.ts), so it is never cached nor framed.
 */
export function indexPage(version: string, routes: ReadonlyArray<AdminRoute>, apiDisabled: boolean, token: string): ControlReply {
  const disabled = apiDisabled ? '<p>The admin API is disabled (admin.disable_api, --disable-admin-api or MOCK_ADMIN_API_ENABLED=false).</p>' : '';
  const rows =
    routes.length === 0
      ? ''
      : `<table><tr><th>Method</th><th>Path</th></tr>${routes
          .map((r) => {
            const path = `/__mock/${r.path}`;
            const cell = r.method === 'GET' && !r.path.includes('{') ? `<a href="${escape(path)}">${escape(path)}</a>` : escape(path);
            return `<tr><td>${r.method}</td><td>${cell}</td></tr>`;
          })
          .join('')}</table>`;
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="mock-admin-token" content="${escape(token)}"><title>mock admin</title>
<style>body{font:15px system-ui,sans-serif;margin:2rem;color:#222}td,th{padding:.2rem .8rem;text-align:left}a{color:#0b5cad}</style></head>
<body><h1>mock admin</h1>${disabled}<p>Version ${escape(version)}. Every endpoint also answers under <code>/__mock/api/</code>.</p>${rows}</body></html>`;
  const headers: Array<[string, string]> = [
    ['content-type', 'text/html; charset=utf-8'],
    ['cache-control', 'no-store'],
    ['content-security-policy', "frame-ancestors 'none'"],
  ];
  return { status: 200, headers, body };
}
