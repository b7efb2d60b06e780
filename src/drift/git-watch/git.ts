import { execFile } from 'node:child_process';
import { MockError } from '../../../common/errors.js';

/** What one git command may print before it is cut off: a blob of a served description at most (see snapshot.ts). */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

export interface GitOptions {
  /** The working tree git runs in. */
  cwd: string;
  /** Kills a git that hangs (a fetch from a remote that stopped answering). */
  timeoutMs?: number;
}

/**
 * Runs `git <args>` (an argument array, never a shell) and resolves with its stdout as bytes. Git
 * never prompts (a fetch that needs credentials fails at once instead of waiting for a terminal);
 * a failure is one line: git missing, or the command and the first line git said.
 */
export function git(args: readonly string[], options: GitOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
    execFile('git', args, { cwd: options.cwd, env, encoding: 'buffer', maxBuffer: MAX_OUTPUT_BYTES, timeout: options.timeoutMs ?? 0, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error === null) return resolve(stdout);
      const failure = error as NodeJS.ErrnoException & { killed?: boolean; code?: string | number };
      if (failure.code === 'ENOENT') return reject(new MockError('MOCK_ERR_GIT', 'git is not installed or not on PATH: install git (mock git-watch runs it)', 2));
      const said =
        stderr
          .toString('utf8')
          .trim()
          .split('\n')
          .find((line) => line.trim() !== '') ?? (failure.killed === true ? `no answer within ${(options.timeoutMs ?? 0) / 1000} s` : error.message.split('\n')[0]);
      reject(new MockError('MOCK_ERR_GIT', `git ${args[0]} failed: ${said.replace(/^(fatal|error): /, '')}`, 2));
    });
  });
}

/** `git <args>` as one trimmed line of text. */
export async function gitLine(args: readonly string[], options: GitOptions): Promise<string> {
  return (await git(args, options)).toString('utf8').trim();
}

/** Where the repository around `dir` keeps its files: the top of the working tree, HEAD's folder and the shared refs' folder (they differ in a linked worktree). */
export async function locateRepository(dir: string): Promise<{ top: string; gitDir: string; commonDir: string }> {
  let lines: string[];
  try {
    lines = (await gitLine(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir'], { cwd: dir })).split('\n');
  } catch (e) {
    if ((e as MockError).message.includes('not a git repository')) {
      throw new MockError('MOCK_ERR_GIT', `${dir} is not in a git working tree: run mock git-watch in a clone (or git init and commit the descriptions first)`, 2);
    }
    throw e;
  }
  const [top, gitDir, commonDir] = lines;
  return { top, gitDir, commonDir };
}

/** The commit a revision names, or undefined when it names none (a repository without a commit yet). */
export async function resolveCommit(revision: string, cwd: string): Promise<string | undefined> {
  try {
    return await gitLine(['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], { cwd });
  } catch {
    return undefined;
  }
}
