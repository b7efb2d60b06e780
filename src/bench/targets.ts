// --target and --targets-file: base URLs the load goes to.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import { redactUrlCredentials } from '../../common/redacted.js';
import type { Endpoint } from './protocol.js';

export interface Target {
  /** The URL as given (trailing slash removed), used to name the target in reports. */
  url: string;
  endpoint: Endpoint;
  /** Path of the URL without the trailing slash, put before every request path ('' for none). */
  prefix: string;
  /** Host header value. */
  host: string;
}

export function parseTarget(text: string, insecure: boolean, flag = '--target'): Target {
  // errors quote the target with its password as [redacted]; reports name it by origin and path
  const shown = JSON.stringify(redactUrlCredentials(text));
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: not a URL: ${shown} (e.g. http://127.0.0.1:3000)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: only http:// and https:// targets are supported, got ${shown}`);
  }
  if (url.search || url.hash) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: a target is a base URL without query or fragment, got ${shown}`);
  }
  const protocol = url.protocol;
  const port = url.port ? Number(url.port) : protocol === 'https:' ? 443 : 80;
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const prefix = url.pathname.replace(/\/+$/, '');
  return {
    url: `${url.origin}${prefix}`,
    endpoint: { protocol, hostname, port, insecure },
    prefix,
    host: url.host,
  };
}

/** One URL per line; blank lines and `#` comments (whole-line or trailing) are skipped. */
export function readTargetsFile(file: string, cwd: string): string[] {
  const absolute = path.resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--targets-file: cannot read ${file} (pass a file with one URL per line)`);
  }
  const urls = text
    .split(/\r?\n/)
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line !== '');
  if (urls.length === 0) throw new MockError('MOCK_ERR_FLAG_INVALID', `--targets-file: ${file} lists no URL (one per line, # for comments)`);
  return urls;
}

/** --target and --targets-file together (the --target first), each parsed; at least one. */
export function resolveTargets(target: string | undefined, targetsFile: string | undefined, insecure: boolean, cwd: string): Target[] {
  const targets: Target[] = [];
  if (target !== undefined) targets.push(parseTarget(target, insecure));
  if (targetsFile !== undefined) for (const url of readTargetsFile(targetsFile, cwd)) targets.push(parseTarget(url, insecure, `--targets-file ${targetsFile}`));
  if (targets.length === 0) throw new MockError('MOCK_ERR_FLAG_INVALID', 'no target: pass --target <url> or --targets-file <file>');
  return targets;
}
