import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The most a semi-space may grow to in a `mock serve` process (MB): what the node:http backend wants under load. */
export const SEMI_SPACE_CEILING_MB = 64;

/**
 * Marks a process bin/run.js restarted with SEMI_SPACE_CEILING_MB, so that the flag it finds is not
 * taken for the user's. Not a MOCK_ variable: it is no setting, and the admin API lists those.
 */
export const RELAUNCH_MARKER = '_MOCK_YOUNG_GENERATION';

/** The young generation mock keeps under load per HTTP backend (both semi-spaces, bytes). */
const YOUNG_GENERATION_BYTES: Record<'uws' | 'node', number> = {
  // as fast here as V8's default of 2 x 16 MB, with 16 MB less resident memory
  uws: 2 * 8 * 1024 * 1024,
  // node:http allocates its request and response streams per request (about 7.5 KB): 2 x 64 MB
  // answers a documented example 5-8% faster than 2 x 8 MB on Node 20 and 26 (docs/backends.md)
  node: 2 * SEMI_SPACE_CEILING_MB * 1024 * 1024,
};

type Env = Readonly<Record<string, string | undefined>>;

const SEMI_SPACE_FLAG = /--max[-_]semi[-_]space[-_]size/;

/**
 * The node flags bin/run.js restarts `mock serve` with (process.execve: the same process, pid and
 * open files), or undefined. V8 sizes its young generation only from node's command line, and which
 * HTTP backend serves is known only once the configuration is read, so the ceiling is raised for
 * every server and sizeYoungGeneration holds the uWS backend below it. Not where the user sized it,
 * nor where process.execve is missing (Node 20, Node 22 before 22.15, Windows): there the node
 * backend keeps V8's own ceiling.
 */
export function relaunchFlags(
  argv: readonly string[],
  execArgv: readonly string[] = process.execArgv,
  env: Env = process.env,
  canExec = typeof (process as { execve?: unknown }).execve === 'function',
): string[] | undefined {
  if (!canExec || (argv[0] !== 'serve' && argv[0] !== 'sync') || argv.includes('--help') || argv.includes('-h')) return undefined;
  if (env[RELAUNCH_MARKER] !== undefined || youngGenerationSetByUser(execArgv, env)) return undefined;
  return [`--max-semi-space-size=${SEMI_SPACE_CEILING_MB}`];
}

/** Whether the user sized the young generation on node's command line or in NODE_OPTIONS: theirs wins. */
export function youngGenerationSetByUser(execArgv: readonly string[] = process.execArgv, env: Env = process.env): boolean {
  // after the relaunch, the flag on the command line is mock's own
  const flags = env[RELAUNCH_MARKER] === undefined ? [...execArgv, env.NODE_OPTIONS ?? ''] : [env.NODE_OPTIONS ?? ''];
  return flags.some((arg) => SEMI_SPACE_FLAG.test(arg));
}

/** Holds the young generation of a serving process at the size its HTTP mock's backend wants, unless the user sized it; returns the undo. */
export function sizeYoungGeneration(running: { servers: ReadonlyArray<{ kind: string; backend?: string }> }): () => void {
  const backend = running.servers.find((server) => server.kind === 'HTTP')?.backend;
  return youngGenerationSetByUser() ? () => {} : capYoungGeneration(YOUNG_GENERATION_BYTES[backend === 'node' ? 'node' : 'uws']);
}

/**
 * Keeps V8's young generation (two semi-spaces) at or below `maxBytes` in a long-running server.
 *
 * Under sustained allocation V8 doubles it up to its ceiling; what can change at run time is the
 * growth factor: after each garbage collection it is set to 1 (no growth) when one more doubling
 * would pass the cap, and back to 2 otherwise, since V8 shrinks the young generation of an idle
 * server and one that stayed small would scavenge far too often under the next load. V8 grows it
 * at most once per scavenge, so checking after each keeps it within the cap.
 */
export function capYoungGeneration(maxBytes: number): () => void {
  let growing: boolean | undefined;
  const check = (): void => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young === undefined) return;
    const grow = young.space_size * 2 <= maxBytes;
    if (grow === growing) return;
    growing = grow;
    setFlagsFromString(`--semi-space-growth-factor=${grow ? 2 : 1}`);
  };
  check();
  const observer = new PerformanceObserver(check);
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
