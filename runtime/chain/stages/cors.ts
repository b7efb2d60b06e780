import { ownAnswer, refusal, type Answer, type Exchange } from '../exchange/index.js';
import { OriginList, parseOrigin } from '../../match/index.js';
import { afterNext, defineStage } from '../stage.js';

/** Response headers a page may read without being told (CORS-safelisted), so never listed in Expose-Headers. */
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

/**
 * CORS of the mocked API (http.cors): preflights are answered here, ahead of the descriptions'
 * own OPTIONS operations and of security (browsers send them without credentials); every other
 * answer to an allowed origin, errors included, carries Access-Control-Allow-Origin and exposes
 * the headers it has. With `*`, the origin is `*` and no credentials are allowed (what browsers
 * accept); listed origins are echoed with Access-Control-Allow-Credentials: true.
 */
export const corsStage = defineStage({ slot: 'cors', kinds: ['description', 'http'] }, ({ settings: { cors: options } }) => {
  if (options === undefined) return undefined;
  const origins = new OriginList(options.allowedOrigins, 'http.cors.allowed_origins');
  const methods = options.allowedMethods.join(', ');
  const allowedHeaders = options.allowedHeaders?.join(', ');
  const allowed = (origin: string): boolean => {
    if (origins.any) return true;
    const parsed = parseOrigin(origin);
    return parsed !== undefined && origins.allows(parsed);
  };
  const originHeaders = (origin: string): Array<[string, string]> =>
    origins.any ? [['access-control-allow-origin', '*']] : [['access-control-allow-origin', origin], ['access-control-allow-credentials', 'true'], ['vary', 'Origin']];

  const preflight = (ex: Exchange, origin: string): Answer => {
    // refused by mock.yaml, not by a description (and a page never sees a preflight's body): the problem body
    if (!allowed(origin)) return ownAnswer(refusal('MOCK_ERR_CORS_ORIGIN', { origin }, { headers: [['vary', 'Origin']], logged: true }));
    const headers: Array<[string, string]> = [...originHeaders(origin), ['access-control-allow-methods', methods]];
    const asked = ex.headers['access-control-request-headers'];
    const allowHeaders = allowedHeaders ?? asked;
    if (allowHeaders !== undefined && allowHeaders !== '') headers.push(['access-control-allow-headers', allowHeaders]);
    headers.push(['vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers']);
    return { status: 204, headers, body: '', source: 'builtin' };
  };
  const decorate = (ex: Exchange, answer: Answer): Answer => {
    const origin = ex.headers.origin;
    if (origin === undefined || !allowed(origin)) return origins.any ? answer : { ...answer, headers: [...answer.headers, ['vary', 'Origin']] };
    const expose = [...new Set(answer.headers.map(([name]) => name.toLowerCase()).filter((name) => !SAFELISTED.has(name)))];
    const headers: Array<[string, string]> = [...answer.headers, ...originHeaders(origin)];
    if (expose.length > 0) headers.push(['access-control-expose-headers', expose.join(', ')]);
    return { ...answer, headers };
  };
  return {
    appliesTo: () => true,
    run(ex, next) {
      const origin = ex.headers.origin;
      if (origin !== undefined && ex.method === 'OPTIONS' && ex.headers['access-control-request-method'] !== undefined) return preflight(ex, origin);
      return afterNext(next(ex), (answer) => decorate(ex, answer));
    },
    decorate,
  };
});
