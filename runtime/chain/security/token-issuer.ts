import { randomBytes, randomUUID } from 'node:crypto';
import { scopesOf, type Granted } from './jwt-verifier.js';
import type { TokenEndpointOptions } from './options.js';
import { loadJose } from '../../../common/jose.js';

const ISSUER = 'mock-oauth2-token-endpoint';

/**
 * Access tokens of the mock OAuth 2.0 token endpoint: HS256 JWTs signed with a key of this
 * process, so the server that issued them accepts them (until it restarts) and clients that
 * decode tokens see the usual claims (sub = client_id, scope, exp). jose is imported on first use.
 */
export class TokenIssuer {
  private readonly key = randomBytes(32);

  constructor(
    readonly options: TokenEndpointOptions,
    private readonly now: () => number = Date.now,
  ) {}

  async issue(clientId: string, scope: string[]): Promise<string> {
    const { SignJWT } = await loadJose();
    const iat = Math.floor(this.now() / 1000);
    return new SignJWT(scope.length > 0 ? { scope: scope.join(' '), client_id: clientId } : { client_id: clientId })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setSubject(clientId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.options.expiresInSeconds)
      .setJti(randomUUID())
      .sign(this.key);
  }

  /** The grant when this endpoint issued the token and it has not expired, else why not. */
  async verify(token: string): Promise<Granted | string> {
    const { jwtVerify } = await loadJose();
    return jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'], currentDate: new Date(this.now()), requiredClaims: ['exp'] }).then(
      ({ payload }) => ({ scopes: scopesOf(payload).scopes ?? [] }),
      (err: unknown) => `token refused: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
