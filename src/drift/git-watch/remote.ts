import { MockError } from '../../../common/errors.js';
import { git, gitLine, resolveCommit } from './git.js';

export interface RemoteBranch {
  /** A remote's name (origin) or URL. */
  remote: string;
  branch: string;
  /** Kills a fetch that hangs. */
  timeoutMs: number;
}

/** Where a fetch of the branch is kept: the remote-tracking ref of a named remote. */
export const trackingRef = ({ remote, branch }: RemoteBranch): string => `refs/remotes/${remote}/${branch}`;

/** Refuses, before watching starts, a remote that is not configured or a branch name git would refuse. */
export async function checkRemoteBranch(top: string, target: RemoteBranch): Promise<void> {
  const remotes = (await gitLine(['remote'], { cwd: top })).split('\n').filter((name) => name !== '');
  if (!remotes.includes(target.remote)) {
    const known = remotes.length === 0 ? 'none is configured' : `configured: ${remotes.join(', ')}`;
    throw new MockError('MOCK_ERR_GIT', `--remote ${target.remote}: no such remote in ${top} (${known}; add one with git remote add ${target.remote} <url>)`, 2);
  }
  try {
    await git(['check-ref-format', '--branch', target.branch], { cwd: top });
  } catch {
    throw new MockError('MOCK_ERR_GIT', `--branch ${target.branch}: not a valid branch name`, 2);
  }
}

/** Fetches the branch alone (no tags) into its remote-tracking ref and returns the commit it was at and the one it is at now. */
export async function fetchBranch(top: string, target: RemoteBranch): Promise<{ before: string | undefined; after: string }> {
  const ref = trackingRef(target);
  const before = await resolveCommit(ref, top);
  await git(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', target.remote, `+refs/heads/${target.branch}:${ref}`], { cwd: top, timeoutMs: target.timeoutMs });
  const after = await resolveCommit(ref, top);
  if (after === undefined) throw new MockError('MOCK_ERR_GIT', `git fetch ${target.remote} ${target.branch} brought no commit`, 2);
  return { before, after };
}

/**
 * Moves the checked-out branch forward to the fetched commit, and only that: the working tree must
 * be on the watched branch, and git itself refuses a merge that is not a fast-forward or would
 * overwrite uncommitted changes (the one line it says is the reason).
 */
export async function fastForward(top: string, target: RemoteBranch): Promise<void> {
  const current = await gitLine(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: top }).catch(() => '(a detached HEAD)');
  if (current !== target.branch) {
    throw new MockError('MOCK_ERR_GIT', `not fast-forwarded: the working tree is on ${current}, not ${target.branch} (git switch ${target.branch} to follow it)`, 2);
  }
  try {
    await git(['merge', '--ff-only', '--quiet', trackingRef(target)], { cwd: top });
  } catch (e) {
    throw new MockError('MOCK_ERR_GIT', `not fast-forwarded: ${(e as Error).message}`, 2);
  }
}
