import type { JSONWebKeySet } from 'jose';

/** mock.yaml `auth`: which credentials the mocked API accepts, per security scheme of the descriptions. */
export interface ApiAuthOptions {
  /** By securitySchemes name. A scheme without pins accepts any credentials of the right form. */
  schemes: Record<string, SchemePins>;
  /** A mock OAuth 2.0 token endpoint (client credentials grant) on the mock's port. */
  tokenEndpoint?: TokenEndpointOptions;
}

export interface SchemePins {
  /** apiKey schemes: the accepted key values. */
  apiKeys?: string[];
  /** http basic: the accepted user names and passwords. */
  users?: Array<{ username: string; password: string }>;
  /** Bearer-like schemes (http bearer, oauth2, openIdConnect): opaque tokens accepted as they are. */
  tokens?: string[];
  /** Bearer-like schemes: JWTs accepted when they verify. */
  jwt?: JwtPins;
}

export interface JwtPins {
  /** HS256/384/512 secret. */
  secret?: string;
  /** Public keys (a JWKS document, read from `jwks_file` at start). */
  jwks?: JSONWebKeySet;
  issuer?: string;
  audience?: string | string[];
  /** A token without `exp` is refused (an expired one always is). */
  requireExpiry: boolean;
  clockToleranceSeconds: number;
}

export interface TokenEndpointOptions {
  /** Absolute path on the mock's port, e.g. /oauth/token. */
  path: string;
  clients: Array<{ clientId: string; clientSecret: string; scopes: string[] }>;
  /** Life of an issued token. */
  expiresInSeconds: number;
}
