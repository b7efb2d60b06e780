import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** A parsed `scrypt$N$r$p$<salt base64>$<hash base64>` string. */
export interface PasswordHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

// About 100 ms per hash on a laptop core: slow for guessing, fast enough for a login.
const COST = { N: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
// scrypt needs about 128·N·r bytes; stored hashes asking for more are refused rather than run.
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const DECIMAL = /^[1-9][0-9]{0,9}$/;

function derive(password: string, salt: Buffer, length: number, { N, r, p }: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, { N, r, p, maxmem: 2 * MAX_MEMORY_BYTES }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes with a fresh salt at the default cost. */
export async function hashPasswordParts(password: string): Promise<PasswordHash> {
  const salt = randomBytes(SALT_BYTES);
  return { ...COST, salt, hash: await derive(password, salt, KEY_BYTES, COST) };
}

export function formatPasswordHash({ N, r, p, salt, hash }: PasswordHash): string {
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** The string to put in `password_hash` of a configured user. */
export async function hashPassword(password: string): Promise<string> {
  return formatPasswordHash(await hashPasswordParts(password));
}

/** Throws an Error whose message says what is wrong with the text. */
export function parsePasswordHash(text: string): PasswordHash {
  const parts = text.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') throw new Error('expected scrypt$N$r$p$<salt base64>$<hash base64>');
  const [, nText, rText, pText, saltText, hashText] = parts;
  if (![nText, rText, pText].every((v) => DECIMAL.test(v))) throw new Error('N, r and p must be positive whole numbers');
  const [N, r, p] = [Number(nText), Number(rText), Number(pText)];
  if (N < 2 || !Number.isInteger(Math.log2(N))) throw new Error(`N must be a power of two above 1 (got ${N})`);
  if (128 * N * r > MAX_MEMORY_BYTES || p > 16) throw new Error('its cost (N, r, p) is too high to check at login');
  if (!BASE64.test(saltText) || !BASE64.test(hashText)) throw new Error('salt and hash must be base64');
  const salt = Buffer.from(saltText, 'base64');
  const hash = Buffer.from(hashText, 'base64');
  if (salt.length < 8 || hash.length < 16) throw new Error('salt must be at least 8 bytes and hash at least 16 bytes');
  return { N, r, p, salt, hash };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const key = await derive(password, stored.salt, stored.hash.length, stored);
  return timingSafeEqual(key, stored.hash);
}

/** Compared against when the username is unknown, so the answer takes as long as for a known one. */
export const UNKNOWN_USER_HASH: PasswordHash = { ...COST, salt: randomBytes(SALT_BYTES), hash: randomBytes(KEY_BYTES) };
