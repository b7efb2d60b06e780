import path from 'node:path';
import { isInside, realPathOf } from '../../common/confinement.js';
import { isUrl } from '../fingerprint.js';

/**
 * Where the external $refs of one description may lead. A description is data that a cloned
 * repository or a save through the admin API can plant, and what its $refs read is served to the
 * network; so a local description's $refs stay in its own folder and the project folder (by real
 * path: a symbolic link counts where it points), and a description read from a URL's stay under
 * that URL's folder. Anything else must be allowed with --allow-ref, which only the command line
 * gives (never mock.yaml nor a description: those are what an attacker writes).
 */
export interface RefPolicy {
  /** Why `target` (the absolute path or URL the bundler would read) is refused, or undefined when it may be read. */
  refusal(target: string): RefRefusal | undefined;
}

export interface RefRefusal {
  /** What is wrong, e.g. `leads outside the project (to /etc/passwd)`. */
  problem: string;
  /** Where external $refs must stay, for the message. */
  allowed: string;
  /** The --allow-ref value that would allow the target, if one can. */
  allowValue?: string;
}

/**
 * `root`: the description (absolute path or URL); `projectDir`: the project folder (mock.yaml's,
 * else the current one); `allow`: --allow-ref values, absolute folders and http(s) URL prefixes.
 */
export function refPolicy(root: string, projectDir: string, allow: readonly string[]): RefPolicy {
  const project = isUrl(root) ? [] : unique([path.dirname(root), path.resolve(projectDir)]);
  const folders = [...project, ...allow.filter((a) => !isUrl(a)).map((f) => path.resolve(f))];
  const realFolders = folders.map(realPathOf);
  const prefixes = [...(isUrl(root) ? [new URL('.', root).href] : []), ...allow.filter(isUrl)].map((p) => new URL(p));
  const allowed = isUrl(root) ? prefixes[0].href : project.join(' or ');
  const refuse = (problem: string, allowValue?: string): RefRefusal => ({ problem, allowed, allowValue });

  const fileRefusal = (target: string): RefRefusal | undefined => {
    const lexical = path.resolve(target);
    if (!folders.some((folder) => isInside(lexical, folder))) return refuse(`leads outside the project (to ${lexical})`, path.dirname(lexical));
    const real = realPathOf(lexical);
    if (!realFolders.some((folder) => isInside(real, folder))) return refuse(`leads outside the project through a symbolic link (to ${real})`, path.dirname(real));
    return undefined;
  };

  const urlRefusal = (target: string): RefRefusal | undefined => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return refuse('is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse(`is a ${url.protocol} URL, which is never read (use a path or an http(s) URL)`);
    const folder = new URL('.', url).href;
    // a server may decode %2F or %2E%2E back into a path that climbs out of the folder
    if (/%(2f|5c|2e)/i.test(url.pathname)) return refuse('has an encoded "/", "\\" or "." in its path');
    if (prefixes.some((prefix) => under(url, prefix))) return undefined;
    return refuse(isUrl(root) ? `leads outside ${prefixes[0].href}` : 'is a URL, and the $refs of a local description may not read URLs', folder);
  };

  return { refusal: (target) => (/^[a-z][a-z0-9+.-]*:/i.test(target) && !path.isAbsolute(target) ? urlRefusal(target) : fileRefusal(target)) };
}

/** A URL under a prefix: same origin, and the prefix's path itself or a path below it. */
function under(url: URL, prefix: URL): boolean {
  if (url.origin !== prefix.origin) return false;
  const folder = prefix.pathname.endsWith('/') ? prefix.pathname : `${prefix.pathname}/`;
  return url.pathname === prefix.pathname || url.pathname.startsWith(folder);
}

const unique = (list: string[]): string[] => [...new Set(list)];
