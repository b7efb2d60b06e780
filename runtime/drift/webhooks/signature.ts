import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 of
 * `${id}.${timestamp}.${body}`, base64, sent as `webhook-signature: v1,<signature>`. node:crypto
 * rather than the `standardwebhooks` package: signing is one HMAC, and the package brings two
 * dependencies (a pure-JavaScript SHA-256 among them) for it.
 */
const PREFIX = 'whsec_';

/** The key a configured secret stands for: `whsec_<base64>` as the Standard Webhooks libraries read it, any other text as its UTF-8 bytes. */
export function webhookKey(secret: string): Buffer {
  return secret.startsWith(PREFIX) ? Buffer.from(secret.slice(PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** What is wrong with a secret, or undefined: a `whsec_` one must be base64 of at least one byte. */
export function checkWebhookSecret(secret: string): string | undefined {
  if (!secret.startsWith(PREFIX)) return undefined;
  const encoded = secret.slice(PREFIX.length);
  const valid = encoded.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) && encoded.length % 4 === 0;
  return valid ? undefined : 'expected whsec_ followed by base64 (as Standard Webhooks libraries make it), or a secret without the whsec_ prefix';
}

/** The `webhook-signature` header's value; `timestamp` in whole seconds since the epoch. */
export function signWebhook(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
