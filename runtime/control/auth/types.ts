/** Admin roles, weakest first (each may do what the ones before it may). */
export const ROLES = ['viewer', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface AuthUser {
  username: string;
  role: Role;
}

/** A user from configuration (`admin.auth.users`): exactly one of password / password_hash. */
export interface ConfiguredUser {
  username: string;
  role: Role;
  password?: string;
  /** `scrypt$N$r$p$<salt base64>$<hash base64>`, as made by `hashPassword`. */
  password_hash?: string;
}

export interface AuthOptions {
  /** JWT role checks on the admin API. */
  enabled: boolean;
  /** From JWT_SECRET; at least 32 bytes. Without it a per-process secret is generated (or `sharedKey` is used). */
  jwtSecret?: string;
  /**
   * Without JWT_SECRET: the random key every worker of one `mock serve --workers` signs with, so
   * that a token one worker issued is valid on all of them (the primary makes it).
   */
  sharedKey?: Uint8Array;
  accessTtlSeconds?: number;
  refreshTtlSeconds?: number;
  users?: ConfiguredUser[];
  /** False when MOCK_DISABLE_DEV_SEED_USERS=true. */
  seedDevUsers: boolean;
  /** Hosted mode: writes need header X-Mock-Management-Token with this value. */
  managementToken?: string;
  logger?: { warn(msg: string): void };
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
}

/** Request headers with lower-case names, as Node and uWebSockets.js give them. */
export type AuthHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface AuthRequest {
  method: string;
  /** Admin endpoint name without prefix: `mocks`, `mocks/abc`, `config/latency`, `auth/login`. */
  endpoint: string;
  headers: AuthHeaders;
}

export type AuthDecision = { ok: true; user: AuthUser | null } | { ok: false; status: 401 | 403; error: string };

/** What the admin router wraps in its envelope. */
export type AuthResult = { status: number; data: unknown } | { status: number; error: string; retryAfterSeconds?: number };
