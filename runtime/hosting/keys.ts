import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TenantKey } from './tenant-record.js';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** A new key: 32 random bytes, URL-safe, with a prefix that says what it is (secret scanners find it). */
export function newKey(): { key: string; digest: string } {
  const key = `mkt_${randomBytes(32).toString('base64url')}`;
  return { key, digest: sha256(key).toString('hex') };
}

/**
 * Who `given` is: the host's management token (the operator, who may act on every hosted mock as
 * its admin) or one of the tenant's keys. Digests are compared in constant time, every one of them
 * whatever matched, so the answer's timing says nothing of which or how much matched.
 */
export function identify(given: string, operator: Buffer, keys: readonly TenantKey[]): { name: string; role: TenantKey['role']; operator: boolean } | undefined {
  const digest = sha256(given);
  let found: { name: string; role: TenantKey['role']; operator: boolean } | undefined;
  if (timingSafeEqual(digest, operator)) found = { name: 'operator', role: 'admin', operator: true };
  for (const key of keys) {
    if (timingSafeEqual(digest, Buffer.from(key.digest, 'hex')) && found === undefined) found = { name: key.name, role: key.role, operator: false };
  }
  return found;
}

export const operatorDigest = (token: string): Buffer => sha256(token);
