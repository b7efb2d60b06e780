import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { redactUrlCredentials } from '../../../common/redacted.js';
import writeFileAtomic from 'write-file-atomic';
import type { Validators } from './fetch.js';

/** `<target>.sync.json`: what the last sync wrote, so the next one can ask the server whether it changed. */
export interface SyncState {
  url: string;
  etag?: string;
  last_modified?: string;
  sha256: string;
  fetched_at: string;
}

export const statePath = (target: string): string => `${target}.sync.json`;

export const sha256 = (content: Buffer | string): string => createHash('sha256').update(content).digest('hex');

/**
 * The validators to send: only when the state is for this URL and the local file is still the
 * bytes that sync wrote (an edited or deleted file is fetched again and compared).
 */
export function validatorsFor(target: string, url: string): Validators {
  if (!existsSync(target) || !existsSync(statePath(target))) return {};
  let state: Partial<SyncState>;
  try {
    state = JSON.parse(readFileSync(statePath(target), 'utf8')) as Partial<SyncState>;
  } catch {
    return {}; // an unreadable state only costs a full fetch
  }
  if (state.url !== redactUrlCredentials(url) || state.sha256 !== sha256(readFileSync(target))) return {};
  return { etag: state.etag, lastModified: state.last_modified };
}

export function writeState(target: string, url: string, body: Buffer, validators: Validators): void {
  const state: SyncState = { url: redactUrlCredentials(url), etag: validators.etag, last_modified: validators.lastModified, sha256: sha256(body), fetched_at: new Date().toISOString() };
  writeFileAtomic.sync(statePath(target), `${JSON.stringify(state, null, 2)}\n`);
}
