import { MockError } from '../../../common/errors.js';
import { redactUrlCredentials, redactUrlsInText } from '../../../common/redacted.js';

/** The most a description may weigh: a server sending more is refused rather than held in memory. */
export const MAX_BODY_BYTES = 50 * 1024 * 1024;

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type FetchResult = { status: 'unchanged' } | { status: 'changed'; body: Buffer; etag?: string; lastModified?: string };

const fail = (url: string, problem: string, fix: string): MockError => new MockError('MOCK_ERR_SPEC_FETCH', `${redactUrlCredentials(url)}: cannot fetch: ${problem} (${fix})`, 2);

/** A conditional GET (If-None-Match / If-Modified-Since) of an http(s) URL, its body capped at MAX_BODY_BYTES. */
export async function fetchDescription(url: string, validators: Validators, timeoutMs: number): Promise<FetchResult> {
  const protocol = URL.canParse(url) ? new URL(url).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') throw new MockError('MOCK_ERR_SPEC_FETCH', `--url ${redactUrlCredentials(url)}: not an http(s) URL (pass http://… or https://…)`, 2);
  const headers: Record<string, string> = {};
  if (validators.etag !== undefined) headers['if-none-match'] = validators.etag;
  if (validators.lastModified !== undefined) headers['if-modified-since'] = validators.lastModified;
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { headers, signal });
  } catch (e) {
    if (signal.aborted) throw fail(url, `no answer within ${timeoutMs / 1000} s`, 'check the server, or raise --timeout');
    const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
    throw fail(url, redactUrlsInText(cause), 'check the URL and that the server is reachable');
  }
  if (response.status === 304) {
    await response.body?.cancel();
    return { status: 'unchanged' };
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw fail(url, `HTTP ${response.status}`, 'check the URL');
  }
  const body = await readCapped(url, response, signal, timeoutMs);
  return { status: 'changed', body, etag: response.headers.get('etag') ?? undefined, lastModified: response.headers.get('last-modified') ?? undefined };
}

async function readCapped(url: string, response: Response, signal: AbortSignal, timeoutMs: number): Promise<Buffer> {
  const tooLarge = (): MockError => fail(url, `the description is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB`, 'sync a smaller description');
  if (Number(response.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) throw tooLarge();
      chunks.push(Buffer.from(chunk));
    }
  } catch (e) {
    if (e instanceof MockError) throw e;
    if (signal.aborted) throw fail(url, `no complete answer within ${timeoutMs / 1000} s`, 'check the server, or raise --timeout');
    throw fail(url, redactUrlsInText((e as Error).message), 'check that the server sends the whole description');
  }
  return Buffer.concat(chunks);
}
