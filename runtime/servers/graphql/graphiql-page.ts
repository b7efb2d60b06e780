import type { Answer, Exchange } from '../../chain/exchange/index.js';
import { assetReply, pagePolicy, webBundle } from '../../files/index.js';

const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/**
 * GraphiQL at the GraphQL path for a browser, as Apollo Server and GraphQL Yoga serve theirs: a GET
 * whose Accept names text/html and that carries no `query` gets the page built into
 * graphiql/dist (served from memory, under the dashboard's policy), its files under
 * `<path>/assets/`. Every other request is GraphQL's. Neither the page nor its files are GraphQL
 * traffic: they skip the chain, the request log and the operation counts.
 */
export class GraphiqlPage {
  private readonly base: string;
  private readonly assets: string;
  private readonly served = new WeakSet<Exchange>();

  constructor(private readonly path: string) {
    this.base = path.endsWith('/') ? path : `${path}/`;
    this.assets = `${this.base}assets/`;
  }

  /** The page or one of its files; undefined for a GraphQL request. */
  answer(ex: Exchange): Answer | undefined {
    if (ex.method !== 'GET') return undefined;
    const answer = ex.path.startsWith(this.assets) ? this.asset(ex) : this.page(ex);
    if (answer !== undefined) this.served.add(ex);
    return answer;
  }

  /** Whether `ex` was answered here (and so is not written to the log). */
  answered(ex: Exchange): boolean {
    return this.served.has(ex);
  }

  private asset(ex: Exchange): Answer | undefined {
    const reply = assetReply(webBundle('graphiql'), ex.path.slice(this.assets.length), ex.headers['if-none-match']);
    return reply === undefined ? undefined : { ...reply, source: 'builtin' };
  }

  private page(ex: Exchange): Answer | undefined {
    const { path } = ex;
    if (path !== this.path && path !== this.base) return undefined;
    if (ex.headers.accept?.includes('text/html') !== true || ex.query.has('query')) return undefined;
    const bundle = webBundle('graphiql');
    const head = `<head><base href="${escape(this.base)}">`;
    const body =
      bundle === null
        ? `<!doctype html><html lang="en">${head}<title>GraphiQL</title></head><body><p>GraphiQL (graphiql/dist) is missing from this installation of mock; GraphQL answers POST ${escape(this.path)}.</p></body></html>`
        : bundle.html.replace('<head>', head);
    const headers: Array<[string, string]> = [
      ['content-type', 'text/html; charset=utf-8'],
      ['cache-control', 'no-cache'],
      ['content-security-policy', pagePolicy(ex.headers.host)],
      ['x-content-type-options', 'nosniff'],
      ['vary', 'accept'],
    ];
    return { status: 200, headers, body, source: 'builtin' };
  }
}
