import { oauthError } from '../exchange/index.js';
import type { Answer, Exchange } from '../exchange/index.js';
import type { TokenIssuer } from './token-issuer.js';

type Params = Map<string, string>;

/** The request's parameters: form-urlencoded as RFC 6749 asks, or a JSON object (what many test clients send). */
function paramsOf(ex: Exchange): Params | string {
  const type = (ex.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const text = ex.body?.toString('utf8') ?? '';
  if (type === 'application/x-www-form-urlencoded' || (type === '' && text === '')) return new Map(new URLSearchParams(text));
  if (type === 'application/json') {
    const json = ex.json;
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return 'the JSON body must be an object of token request parameters';
    return new Map(Object.entries(json).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
  return `send the parameters as application/x-www-form-urlencoded, not ${type}`;
}

/** client_secret_basic (RFC 6749 2.3.1: both parts form-urlencoded) or client_secret_post. */
function clientOf(ex: Exchange, params: Params): { id?: string; secret?: string } {
  const basic = /^basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i.exec(ex.headers.authorization ?? '');
  if (basic !== null) {
    const text = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon !== -1) {
      const decode = (part: string): string => {
        try {
          return decodeURIComponent(part.replace(/\+/g, ' '));
        } catch {
          return part;
        }
      };
      return { id: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)) };
    }
  }
  return { id: params.get('client_id'), secret: params.get('client_secret') };
}

/** A POST to the token endpoint: a client credentials grant, answered as RFC 6749 section 5 says. */
export async function tokenAnswer(ex: Exchange, issuer: TokenIssuer): Promise<Answer> {
  const params = paramsOf(ex);
  if (typeof params === 'string') return oauthError('MOCK_ERR_OAUTH_INVALID_REQUEST', { detail: params });
  const grant = params.get('grant_type');
  if (grant === undefined) return oauthError('MOCK_ERR_OAUTH_INVALID_REQUEST', { detail: 'grant_type is missing: send grant_type=client_credentials' });
  const { id, secret } = clientOf(ex, params);
  const client = issuer.options.clients.find((c) => c.clientId === id);
  if (client === undefined || secret !== client.clientSecret) return oauthError('MOCK_ERR_OAUTH_INVALID_CLIENT', { clientId: id });
  if (grant !== 'client_credentials') return oauthError('MOCK_ERR_OAUTH_UNSUPPORTED_GRANT_TYPE', { grant });
  const asked = (params.get('scope') ?? '').split(' ').filter((s) => s !== '');
  const refused = client.scopes.length === 0 ? undefined : asked.find((s) => !client.scopes.includes(s));
  if (refused !== undefined) return oauthError('MOCK_ERR_OAUTH_INVALID_SCOPE', { scope: refused, allowed: client.scopes });
  const scope = asked.length > 0 ? asked : client.scopes;
  const body: Record<string, unknown> = {
    access_token: await issuer.issue(client.clientId, scope),
    token_type: 'Bearer',
    expires_in: issuer.options.expiresInSeconds,
  };
  if (scope.length > 0) body.scope = scope.join(' ');
  return {
    status: 200,
    headers: [['content-type', 'application/json'], ['cache-control', 'no-store'], ['pragma', 'no-cache']],
    body: JSON.stringify(body),
    source: 'builtin',
  };
}
