import { execFile, spawn } from 'node:child_process';
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
    const env = gitEnvironment();
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

/** Git never prompts, takes no optional locks, speaks English (its messages are matched) and reads folder names as they are, never as globs. */
function gitEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_LITERAL_PATHSPECS: '1', LC_ALL: 'C' };
}

/**
 * The contents of blobs, in order, from one `git cat-file --batch` (one process for a whole
 * snapshot rather than one per file). `bytes`: their total size, known from git ls-tree -l, which
 * bounds what is read.
 */
export function readBlobs(blobs: readonly string[], cwd: string, bytes: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd, env: gitEnvironment(), stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let received = 0;
    // each blob comes as "<sha> blob <size>\n<content>\n"
    const limit = bytes + blobs.length * 128;
    child.stdout.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
    child.on('error', (e: NodeJS.ErrnoException) => reject(e.code === 'ENOENT' ? new MockError('MOCK_ERR_GIT', 'git is not installed or not on PATH: install git (mock git-watch runs it)', 2) : e));
    child.on('close', (code) => {
      if (code !== 0) return reject(new MockError('MOCK_ERR_GIT', `git cat-file failed: ${said.trim().split('\n')[0] || `exit ${code}`}`, 2));
      const out = Buffer.concat(chunks);
      const contents: Buffer[] = [];
      let at = 0;
      for (const blob of blobs) {
        const end = out.indexOf(10, at);
        const header = out.subarray(at, end).toString('utf8').split(' ');
        if (header[0] !== blob || header[1] !== 'blob') return reject(new MockError('MOCK_ERR_GIT', `git cat-file: ${blob} is not a blob of this repository`, 2));
        const size = Number(header[2]);
        contents.push(out.subarray(end + 1, end + 1 + size));
        at = end + 1 + size + 1;
      }
      resolve(contents);
    });
    child.stdin.end(blobs.map((blob) => `${blob}\n`).join(''));
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
  // a revision never starts with a dash: such a value would reach git as an option
  if (revision.startsWith('-')) return undefined;
  try {
    return await gitLine(['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], { cwd });
  } catch {
    return undefined;
  }
}
