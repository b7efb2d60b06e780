import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../../common/errors.js';
import { failsOn, type CompareReport } from '../compare/index.js';
import { compareSnapshots, type CompareSettings, type WatchedDescription } from './changes.js';
import { resolveCommit } from './git.js';
import { fastForward, fetchBranch, type RemoteBranch } from './remote.js';
import { emptySnapshot, isUnder, sameUnder, snapshotOfCommit, snapshotOfWorkingTree, type Scope, type Snapshot } from './snapshot.js';

export interface GitWatchOptions extends CompareSettings {
  /** The repository: the top of its working tree, HEAD's folder and the refs' folder (git.ts locateRepository). */
  repository: { top: string; gitDir: string; commonDir: string };
  descriptions: readonly WatchedDescription[];
  /** The files the served build read besides the descriptions (the targets of their $refs), relative to the top: read and compared with them. */
  referenced?: () => readonly string[];
  /** Folders (relative to the top) never read nor watched: the build's output, which a reload writes. */
  ignored: readonly string[];
  /** Saved edits count, not only commits: the working tree is compared with what is served. */
  uncommitted: boolean;
  /** --fail-on: a change of that severity or worse is said, and makes --once exit 1. */
  failOn?: 'error' | 'warning';
  /** Poll a remote branch besides watching the working tree. */
  remote?: RemoteBranch & { intervalMs: number; fastForward: boolean };
  /** Brings the served mock up to date; throws with the reason when it cannot (the last good build then keeps serving). */
  reload?: (reason: string) => Promise<void>;
  report(report: CompareReport): void;
  /** What happened, one line each. */
  status(line: string): void;
  /** What went wrong, one line each; watching goes on. */
  problem(line: string): void;
}

/** Waits this long after the last file-system event before looking: one commit touches several files under .git. */
const SETTLE_MS = 150;
/** When the file system cannot be watched (inotify limits, some network mounts): how often HEAD is read instead. */
const FALLBACK_POLL_MS = 2000;

const short = (commit: string): string => commit.slice(0, 7);

/**
 * Follows a working tree: when HEAD moves (a commit, a checkout, a pull; or, with `uncommitted`, a
 * saved edit) the served descriptions are compared as they were served and as they are now, each
 * report printed, and the mock reloaded, unless a description cannot be read: then the last good
 * build keeps serving and one line says why. Rounds run one at a time; an event during a round
 * makes one more. Holds one snapshot (the served one) between rounds.
 */
export class GitWatcher {
  /** 0 nothing reached --fail-on, 1 a change did, 2 a description could not be read or a git command failed. */
  exitCode = 0;
  private head: string | undefined;
  private served: Snapshot;
  private watchers: FSWatcher[] = [];
  private watching = false;
  private settle: NodeJS.Timeout | undefined;
  private fetchTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Rounds and fetches take turns: both read and replace the served snapshot. */
  private lock: Promise<unknown> = Promise.resolve();
  private again = false;
  private closed = false;

  private constructor(
    private readonly options: GitWatchOptions,
    head: string | undefined,
    served: Snapshot,
  ) {
    this.head = head;
    this.served = served;
  }

  /** Takes the snapshot of what serves now: HEAD (or the working tree with `uncommitted`), or the commit `since` names. */
  static async create(options: GitWatchOptions, since?: string): Promise<GitWatcher> {
    const { top } = options.repository;
    const head = await resolveCommit(since ?? 'HEAD', top);
    if (since !== undefined && head === undefined) throw new MockError('MOCK_ERR_GIT', `--since ${since}: no such commit in ${top} (name a commit, branch or tag: HEAD~1, origin/main)`, 2);
    const served = options.uncommitted && since === undefined ? await snapshotOfWorkingTree(top, scopes(options)) : await commitSnapshot(options, head);
    return new GitWatcher(options, since === undefined ? head : undefined, served);
  }

  /** What HEAD was when the watcher last looked, for the start line. */
  get headCommit(): string | undefined {
    return this.head;
  }

  /** Watches until close(): the git folders (and, with `uncommitted`, the description folders) for events, the remote on its interval. */
  start(): void {
    const { repository, remote } = this.options;
    this.watching = true;
    const folders = new Map<string, boolean>([
      [repository.gitDir, false],
      [repository.commonDir, false],
      [path.join(repository.commonDir, 'refs', 'heads'), true],
    ]);
    const scope = scopes(this.options);
    if (this.options.uncommitted) for (const folder of scope.paths) folders.set(path.join(repository.top, folder), true);
    try {
      for (const [folder, recursive] of folders) {
        const inTree = path.relative(repository.top, folder);
        const poke = (_: string, name: string | null): void => {
          // what a reload writes into the build folder is no edit of a description
          if (name !== null && isUnder(path.join(inTree, name).split(path.sep).join('/'), scope.ignored)) return;
          this.poke();
        };
        this.watchers.push(watch(folder, { recursive }, poke).on('error', (e) => this.fallBack(e)));
      }
    } catch (e) {
      this.fallBack(e as Error);
    }
    if (remote !== undefined) {
      const tick = (): void => {
        this.fetchTimer = setTimeout(() => void this.fetch().finally(() => !this.closed && tick()), remote.intervalMs);
      };
      tick();
    }
  }

  private poke(): void {
    clearTimeout(this.settle);
    this.settle = setTimeout(() => void this.check(), SETTLE_MS);
  }

  /** Looks once now (the same round an event starts). */
  check(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.exclusive(() => this.round()).catch((e: unknown) => this.fail((e as Error).message));
      } while (this.again && !this.closed);
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  /** One fetch of the remote branch: what moved is reported; with fast-forward the working tree follows, and the round that follows reloads. */
  async fetch(): Promise<void> {
    const forwarded = await this.exclusive(() => this.fetchRound()).catch((e: unknown) => {
      this.fail((e as Error).message);
      return false;
    });
    if (forwarded) await this.check();
  }

  /** True when the checked-out branch was moved to the fetched commit. */
  private async fetchRound(): Promise<boolean> {
    const remote = this.options.remote;
    if (remote === undefined) return false;
    const { top } = this.options.repository;
    const shown = `${remote.remote}/${remote.branch}`;
    let moved: { before: string | undefined; after: string };
    try {
      moved = await fetchBranch(top, remote);
    } catch (e) {
      this.fail(`${(e as Error).message}${this.once ? '' : ` (the mock keeps serving; next try in ${remote.intervalMs / 1000} s)`}`);
      return false;
    }
    if (moved.before === moved.after) {
      if (this.once) this.options.status(`${shown} is still at ${short(moved.after)}`);
      return false;
    }
    this.options.status(`${shown} moved ${moved.before === undefined ? '' : `${short(moved.before)} → `}${short(moved.after)}`);
    if (remote.fastForward) {
      try {
        await fastForward(top, remote);
        return true;
      } catch (e) {
        this.fail((e as Error).message);
      }
    }
    // not applied: what the remote changed is reported, the working tree and the mock stay as they are
    const before = moved.before === undefined ? undefined : await commitSnapshot(this.options, moved.before);
    try {
      const after = await commitSnapshot(this.options, moved.after, `${shown}@${short(moved.after)}`);
      try {
        await this.compare(before ?? this.served, after);
      } finally {
        after.dispose();
      }
    } finally {
      before?.dispose();
    }
    this.options.status(`${shown}: not applied to the working tree (${remote.fastForward ? 'see the line above' : 'pass --fast-forward to follow it, or git pull'})`);
    return false;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.lock.then(work);
    this.lock = result.catch(() => undefined);
    return result;
  }

  /** A watcher that never started (--once): errors then carry no "next try". */
  private get once(): boolean {
    return !this.watching;
  }

  private async round(): Promise<void> {
    const { top } = this.options.repository;
    const head = await resolveCommit('HEAD', top);
    if (!this.options.uncommitted && (head === this.head || head === undefined)) return;
    const next = this.options.uncommitted ? await snapshotOfWorkingTree(top, scopes(this.options)) : await commitSnapshot(this.options, head);
    const moved = head !== this.head;
    this.head = head;
    if (moved && head !== undefined && !this.once) this.options.status(`HEAD is at ${short(head)}`);
    const kept = await this.apply(next);
    if (!kept) next.dispose();
  }

  /** Reports and reloads what changed between the served snapshot and `next`; true when `next` is served now. */
  private async apply(next: Snapshot): Promise<boolean> {
    const changed = await this.compare(this.served, next);
    if (changed === undefined) return false;
    if (changed.length === 0) {
      if (this.once) this.options.status(`no served description changed from ${this.served.label} to ${next.label}`);
      // nothing served changed, but the snapshot is the newer one
      this.served.dispose();
      this.served = next;
      return true;
    }
    if (this.options.reload !== undefined && changed.some((d) => d.server === 'HTTP')) {
      try {
        await this.options.reload(`git-watch: ${next.label}`);
      } catch (e) {
        this.fail(`reload failed: ${(e as Error).message.split('\n')[0]} (the last good build keeps serving)`);
        return false;
      }
      this.options.status(`reloaded: the HTTP mock serves ${next.label}`);
    }
    if (!this.once || this.options.reload !== undefined) {
      for (const d of changed.filter((description) => description.server !== 'HTTP')) {
        this.options.status(`${d.path}: the ${d.server} server does not reload in place: restart mock git-watch to serve this change`);
      }
    }
    this.served.dispose();
    this.served = next;
    return true;
  }

  /** Prints a report for each description that changed; undefined when one cannot be read (said in one line each). */
  private async compare(before: Snapshot, after: Snapshot): Promise<WatchedDescription[] | undefined> {
    const referenced = this.options.referenced?.() ?? [];
    const changed = this.options.descriptions.filter((d) => !sameUnder(before, after, [d.scope, d.path, ...(d.server === 'HTTP' ? referenced : [])]));
    const results = await compareSnapshots(before, after, changed, this.options);
    let readable = true;
    for (const result of results) {
      if ('problem' in result) {
        this.fail(`${result.problem} (the last good build keeps serving)`);
        readable = false;
        continue;
      }
      this.options.report(result.report);
      if (this.options.failOn !== undefined && failsOn(result.report.changes, this.options.failOn)) {
        this.exitCode = Math.max(this.exitCode, 1);
        this.options.status(`${result.report.newSpec}: a change reaches --fail-on ${this.options.failOn}`);
      }
    }
    return readable ? changed : undefined;
  }

  private fail(line: string): void {
    this.exitCode = 2;
    this.options.problem(line.startsWith('git-watch') ? line : `git-watch: ${line}`);
  }

  /** The file system cannot be watched (inotify limits, some network mounts): HEAD is read on an interval instead. */
  private fallBack(e: Error): void {
    if (this.closed || this.pollTimer !== undefined) return;
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
    this.options.problem(`git-watch: cannot watch the repository (${e.message.split('\n')[0]}): reading HEAD every ${FALLBACK_POLL_MS / 1000} s instead`);
    this.pollTimer = setInterval(() => void this.check(), FALLBACK_POLL_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const watcher of this.watchers) watcher.close();
    clearTimeout(this.settle);
    clearTimeout(this.fetchTimer);
    clearInterval(this.pollTimer);
    await this.running;
    await this.lock;
    this.served.dispose();
  }
}

function scopes(options: GitWatchOptions): Scope {
  return { paths: [...new Set([...options.descriptions.map((d) => d.scope), ...(options.referenced?.() ?? [])])], ignored: options.ignored };
}

async function commitSnapshot(options: GitWatchOptions, commit: string | undefined, label?: string): Promise<Snapshot> {
  const { top } = options.repository;
  if (commit === undefined) return emptySnapshot();
  return snapshotOfCommit(top, commit, scopes(options), label ?? short(commit));
}
