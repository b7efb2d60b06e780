import { fastForward, fetchBranch, gitLine } from '../drift/git-watch/index.js';

export interface GitPullOptions {
  /** The workspace: a git working tree whose branch tracks a remote one. */
  dir: string;
  intervalMs: number;
  say(line: string): void;
  problem(line: string): void;
}

/** A fetch that stopped answering is given up after this long (the next interval tries again). */
const FETCH_TIMEOUT_MS = 30_000;

/**
 * The branch the workspace's checked-out branch tracks (`origin/main`), refused in one line when
 * there is none: sync pulls only what git itself would pull.
 */
export async function upstreamOf(dir: string): Promise<{ remote: string; branch: string }> {
  const upstream = await gitLine(['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}'], { cwd: dir }).catch(() => undefined);
  const remote =
    upstream === undefined ? undefined : await gitLine(['config', '--get', `branch.${await gitLine(['symbolic-ref', '--short', 'HEAD'], { cwd: dir })}.remote`], { cwd: dir }).catch(() => undefined);
  if (upstream === undefined || remote === undefined || !upstream.startsWith(`${remote}/`)) {
    throw new Error(`--pull-interval: the checked-out branch of ${dir} tracks no remote branch (git branch --set-upstream-to origin/main, or drop --pull-interval)`);
  }
  return { remote, branch: upstream.slice(remote.length + 1) };
}

/**
 * Every interval: fetches the tracked branch and fast-forwards the working tree to it (git merge
 * --ff-only: never over local changes, which git refuses in one line), and says which commits and
 * files came. The file-system events of what it wrote make the reload. Returns the stop.
 */
export function pullEvery(options: GitPullOptions, upstream: { remote: string; branch: string }): () => void {
  const target = { ...upstream, timeoutMs: FETCH_TIMEOUT_MS };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const round = async (): Promise<void> => {
    const head = await gitLine(['rev-parse', 'HEAD'], { cwd: options.dir });
    const { after } = await fetchBranch(options.dir, target);
    if (after === head) return;
    await fastForward(options.dir, target);
    const files = (await gitLine(['diff', '--name-only', head, after], { cwd: options.dir })).split('\n').filter((line) => line !== '');
    options.say(
      `mock sync: pulled ${upstream.remote}/${upstream.branch} ${head.slice(0, 7)}..${after.slice(0, 7)} (${files.length} file(s): ${files.slice(0, 5).join(', ')}${files.length > 5 ? ', …' : ''})`,
    );
  };
  const tick = (): void => {
    timer = setTimeout(() => {
      round()
        .catch((e: unknown) => options.problem(`mock sync: ${(e as Error).message} (the next pull is in ${options.intervalMs / 1000} s)`))
        .finally(() => !stopped && tick());
    }, options.intervalMs);
  };
  tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
