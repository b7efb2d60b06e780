import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockError } from '../../common/errors.js';

/** A module as fetched, and its source as install.json records it. */
export interface Fetched {
  bytes: Buffer;
  /** As install.json records it: an absolute path, the URL, or git+<repository>#<tag>. */
  source: string;
}

const MAX_BYTES = 64 * 1024 * 1024;
const FETCH_MS = 30_000;
const VERSION_TAG = /^v?\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/;

/** Reads a plugin module from a local file, an http(s) URL, or a version tag of a Git repository (`git+<url or path>#v1.2.0`). */
export async function fetchSource(spec: string, cwd: string): Promise<Fetched> {
  if (spec.startsWith('git+')) return fromGit(spec, cwd);
  if (/^https?:\/\//.test(spec)) return { bytes: await fromUrl(spec), source: spec };
  const file = path.resolve(cwd, spec);
  try {
    return { bytes: readFileSync(file), source: file };
  } catch (e) {
    throw new MockError(
      'MOCK_ERR_PLUGIN_SOURCE',
      `plugin source not found: ${spec} (${(e as NodeJS.ErrnoException).code ?? 'unreadable'}; give a .wasm file, an http(s) URL or git+<repository>#<version tag>)`,
    );
  }
}

async function fromUrl(url: string): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_MS), redirect: 'follow' });
  } catch (e) {
    throw new MockError('MOCK_ERR_PLUGIN_SOURCE', `plugin source cannot be fetched: ${url} (${(e as Error).message}; check the URL and the network)`);
  }
  if (!response.ok) throw new MockError('MOCK_ERR_PLUGIN_SOURCE', `plugin source cannot be fetched: ${url} answered ${response.status} (check the URL)`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_BYTES) throw new MockError('MOCK_ERR_PLUGIN_SOURCE', `plugin source ${url} is ${bytes.length} bytes, more than ${MAX_BYTES} (a plugin module is one .wasm file)`);
  return bytes;
}

/** `git+<repository>#<tag>` split; a relative local repository resolved against `cwd`. */
export function parseGitSpec(spec: string, cwd: string): { repository: string; tag: string | undefined } {
  const body = spec.slice('git+'.length);
  const hash = body.lastIndexOf('#');
  const repository = hash === -1 ? body : body.slice(0, hash);
  const tag = hash === -1 ? undefined : body.slice(hash + 1);
  const local = !/^[a-z][a-z0-9+.-]*:\/\//i.test(repository) && !/^[\w.-]+@[\w.-]+:/.test(repository);
  return { repository: local ? path.resolve(cwd, repository) : repository, tag };
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  } catch (e) {
    const stderr = String((e as { stderr?: unknown }).stderr ?? '')
      .trim()
      .split('\n')
      .at(-1);
    throw new MockError('MOCK_ERR_PLUGIN_SOURCE', `git ${args[0]} failed: ${stderr || (e as Error).message}`);
  }
}

/** The version tags of a repository, highest first. */
export function versionTags(repository: string): string[] {
  const tags = git(['ls-remote', '--tags', '--refs', repository])
    .split('\n')
    .map((line) => line.split('refs/tags/')[1])
    .filter((tag): tag is string => tag !== undefined && VERSION_TAG.test(tag));
  const parts = (tag: string): number[] => tag.replace(/^v/, '').split(/[-+]/)[0].split('.').map(Number);
  return tags.sort((a, b) => {
    const [x, y] = [parts(a), parts(b)];
    return y[0] - x[0] || y[1] - x[1] || y[2] - x[2] || (a.includes('-') ? 1 : 0) - (b.includes('-') ? 1 : 0);
  });
}

function fromGit(spec: string, cwd: string): Fetched {
  const { repository, tag } = parseGitSpec(spec, cwd);
  if (tag === undefined || !VERSION_TAG.test(tag)) {
    throw new MockError('MOCK_ERR_PLUGIN_SOURCE', `plugin source ${spec} names no version tag: write git+<repository>#v1.2.0`);
  }
  const checkout = mkdtempSync(path.join(os.tmpdir(), 'mock-plugin-'));
  try {
    git(['clone', '--quiet', '--depth', '1', '--branch', tag, '--', repository, checkout]);
    const wasm = readdirSync(checkout).filter((f) => f.endsWith('.wasm'));
    const file = wasm.includes('plugin.wasm') ? 'plugin.wasm' : wasm.length === 1 ? wasm[0] : undefined;
    if (file === undefined)
      throw new MockError('MOCK_ERR_PLUGIN_SOURCE', `${spec}: the repository's top folder at ${tag} holds ${wasm.length === 0 ? 'no .wasm file' : `${wasm.length} .wasm files`}; it needs plugin.wasm`);
    return { bytes: readFileSync(path.join(checkout, file)), source: `git+${repository}#${tag}` };
  } finally {
    rmSync(checkout, { recursive: true, force: true });
  }
}
