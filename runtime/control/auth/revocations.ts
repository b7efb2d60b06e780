import { StoreRefusal, type Store, type StoreBudget } from '../../store/index.js';

/** Why an access token, or a whole login's, stopped working. */
export type FamilyEnd = 'revoked' | 'reused';

/** A revoked access token (`jti:<jti>`) or login (`login:<family>`), kept until the tokens it covers expire. */
export interface Revocation {
  /** Seconds since the epoch. */
  exp: number;
  reason: FamilyEnd;
}

/**
 * The `admin-revocations` store's budget. Past it a revocation is refused, never an older one
 * forgotten: a forgotten revocation would make a revoked token valid again. Each is kept only until
 * the tokens it covers expire (admin.auth.session_timeout_seconds, 15 minutes by default), and
 * each needs a login, which costs a password hash: about 80,000 fit, far more than logins can be
 * made in that time.
 */
export const revocationsBudget: StoreBudget<Revocation> = {
  maxBytes: 16 * 1024 * 1024,
  past: 'refuse',
  setting: 'the revocations of admin access tokens not yet expired (16 MB)',
  sizeOf: (key, value) => 64 + 2 * (key.length + JSON.stringify(value).length),
};

/** How often the expired revocations are looked for, at most (and whenever the store is full). */
const SWEEP_EVERY_MS = 60_000;

/**
 * The access tokens revoked by logout and the logins ended by logout or by a refresh token reused,
 * in the `admin-revocations` store that instances and workers share: a logout on one instance is
 * refused on every other. Each is kept until its tokens would expire anyway, then swept.
 */
export class Revocations {
  private sweptAt: number;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly store: Store<Revocation>,
    private readonly now: () => number,
  ) {
    this.sweptAt = now();
  }

  /** Why a token of this id and login is refused; undefined when it is not. */
  async ended(jti: string, family: string | undefined): Promise<FamilyEnd | undefined> {
    const [token, login] = await Promise.all([this.store.get(`jti:${jti}`), family === undefined ? undefined : this.store.get(`login:${family}`)]);
    const now = this.nowSeconds();
    if (token !== undefined && token.exp > now) return 'revoked';
    return login !== undefined && login.exp > now ? login.reason : undefined;
  }

  /** One access token, until `exp`. False when the store is full of revocations not yet expired. */
  revokeToken(jti: string, exp: number): Promise<boolean> {
    return this.put(`jti:${jti}`, { exp, reason: 'revoked' });
  }

  /** Every access token of the login, until the newest of them would expire (`exp`). False when the store is full. */
  revokeLogin(family: string, reason: FamilyEnd, exp: number): Promise<boolean> {
    return this.put(`login:${family}`, { exp, reason });
  }

  private async put(key: string, value: Revocation): Promise<boolean> {
    if (this.now() - this.sweptAt >= SWEEP_EVERY_MS) await this.sweep();
    if (await this.stored(key, value)) return true;
    await this.sweep();
    return this.stored(key, value);
  }

  private async stored(key: string, value: Revocation): Promise<boolean> {
    try {
      await this.store.set(key, value);
      return true;
    } catch (e) {
      if (e instanceof StoreRefusal && e.full) return false;
      throw e;
    }
  }

  /**
   * Forgets the revocations whose tokens have expired; one sweep at a time. A key set again between
   * the listing and the delete is lost with it, which revives nothing: a login or token revoked anew
   * after its revocation expired has no access token left that has not expired too.
   */
  private sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      this.sweptAt = this.now();
      const now = this.nowSeconds();
      const expired = (await this.store.entries()).filter(([, revocation]) => revocation.exp <= now);
      await Promise.all(expired.map(([key]) => this.store.delete(key)));
    })().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }
}
