/**
 * uWebSockets.js, from the uws-pack repack (ESM; the official v20 binaries). The addon is loaded
 * and probed only here; the HTTP adapter, and next the WebSocket one, reach it through this
 * folder's index.
 *
 * The addon is loaded on first use, never at import: its binaries cover some Node ABIs only
 * (uws-pack 20.0.8: Node 18, 20, 21 and 22) and a build can need a newer glibc than the system's,
 * so importing the runtime must not depend on it. `loadUws()` tries once and says why it failed;
 * every value use goes through `uws()` after it succeeded. Types are imported freely.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import './uws-limits.js';

export type { HttpRequest, HttpResponse, TemplatedApp, us_socket_context_t, WebSocket, us_listen_socket } from 'uWebSockets.js';
export type Uws = typeof import('uWebSockets.js');

/** Why the addon did not load, in words for a log line: "uWebSockets.js has no build for Node 24 (ABI 137) on this system". */
export type UwsLoad = { ok: true; uws: Uws } | { ok: false; reason: string; /** Node majors ≥ 20 whose build loads here ("Node 22 or 20"), or '' */ alternatives: string };

/** NODE_MODULE_VERSION of each Node major (nodejs/node doc/abi_version_registry.json). */
const NODE_OF_ABI: Readonly<Record<string, number>> = { 108: 18, 111: 19, 115: 20, 120: 21, 127: 22, 131: 23, 137: 24, 141: 25, 147: 26 };

let loading: Promise<UwsLoad> | undefined;
let loaded: Uws | undefined;

/** Loads uWebSockets.js once; a failure is a reason, never a throw. */
export function loadUws(): Promise<UwsLoad> {
  loading ??= import('uWebSockets.js').then(
    (module): UwsLoad => {
      loaded = module;
      return { ok: true, uws: module };
    },
    (e: unknown): UwsLoad => ({ ok: false, reason: whyNot(e), alternatives: alternatives() }),
  );
  return loading;
}

/** The loaded addon; only after `loadUws()` said ok (the uWS adapter awaits it before anything else). */
export function uws(): Uws {
  if (loaded === undefined) throw new Error('uWebSockets.js used before loadUws() loaded it');
  return loaded;
}

const thisNode = (): string => `Node ${process.versions.node.split('.')[0]} (ABI ${process.versions.modules})`;

/**
 * The loader's own error, in one line. uws-pack wraps it ("This version of uWS.js supports only …"
 * then the real error after a blank line); the real one says which: a missing binary for this ABI,
 * or a binary the dynamic linker refuses (a newer glibc than this system's).
 */
function whyNot(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const glibc = /GLIBC_(\d+\.\d+)'? not found/.exec(text);
  if (glibc !== null) {
    const have = systemGlibc();
    return `uWebSockets.js's build for ${thisNode()} needs glibc ${glibc[1]}${have === undefined ? '' : ` and this system has ${have}`}`;
  }
  if (/Cannot find module\b.*\.node\b/.test(text)) return `uWebSockets.js has no build for ${thisNode()} on this system`;
  if ((e as NodeJS.ErrnoException | undefined)?.code === 'ERR_MODULE_NOT_FOUND') return 'uWebSockets.js is not installed (npm install installs it)';
  const inner = text.split(/\n\s*\n/).pop() ?? text;
  const line = inner.trim().split('\n')[0].replace(/^Error: /, '');
  return `uWebSockets.js does not load on ${thisNode()} (${line})`;
}

/** The running glibc ("2.36"); undefined on musl and other systems. */
function systemGlibc(): string | undefined {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header?.glibcVersionRuntime;
}

/**
 * The maintained Node lines (even, ≥ 20) whose build of the installed package would load here:
 * a binary for this platform and architecture whose glibc needs this system meets.
 * Read only when the addon did not load, so its cost (reading a few binaries) is never paid otherwise.
 */
function alternatives(): string {
  try {
    const bin = fileURLToPath(new URL('./bin/', import.meta.resolve('uWebSockets.js')));
    const have = systemGlibc();
    const name = new RegExp(`^uws_${process.platform}_${process.arch}_(\\d+)\\.node$`);
    const majors = new Set<number>();
    for (const file of readdirSync(bin)) {
      const abi = name.exec(file)?.[1];
      const major = abi === undefined ? undefined : NODE_OF_ABI[abi];
      if (major === undefined || major < 20 || major % 2 !== 0 || abi === process.versions.modules) continue;
      if (have !== undefined && !glibcMeets(readFileSync(`${bin}${file}`, 'latin1'), have)) continue;
      majors.add(major);
    }
    return [...majors]
      .sort((a, b) => b - a)
      .map((m) => `${m}`)
      .join(' or ');
  } catch {
    return '';
  }
}

/** Whether every GLIBC_2.N symbol version a binary asks for is at most `have`. */
function glibcMeets(binary: string, have: string): boolean {
  const [major, minor] = have.split('.').map(Number);
  for (const m of binary.matchAll(/GLIBC_(\d+)\.(\d+)/g)) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    if (a > major || (a === major && b > minor)) return false;
  }
  return true;
}
