import path from 'node:path';
import { MockError } from '../../common/errors.js';
import { SEEDED_NOW, parseInstant } from '../../common/instant.js';
import type { DataFormat } from './flags.js';

/** The parsed common flags (see flags.ts). */
export interface CommonDataFlags {
  count: number;
  format?: DataFormat;
  output?: string;
  json?: boolean;
  seed?: number;
  now?: string;
}

/** What every `mock data` command runs with once its common flags are checked. */
export interface DataOptions {
  count: number;
  format: DataFormat;
  /** Absolute file, or undefined for stdout. */
  output?: string;
  /** What was written to `output` goes to stdout as JSON rather than to stderr as a line. */
  json: boolean;
  seed?: number;
  /** Epoch milliseconds the clock is pinned to; undefined: the real clock. */
  now?: number;
}

export function resolveDataOptions(flags: CommonDataFlags, env: Readonly<Record<string, string | undefined>> = process.env, cwd = process.cwd()): DataOptions {
  const seed = flags.seed ?? envSeed(env);
  const now = flags.now !== undefined ? parseNow(flags.now) : seed !== undefined ? Date.parse(SEEDED_NOW) : undefined;
  const output = flags.output === undefined ? undefined : path.resolve(cwd, flags.output);
  if (flags.output !== undefined && flags.output.trim() === '') {
    throw new MockError('MOCK_ERR_FLAG_INVALID', '--output: empty file name (pass a file path, or leave --output out to print to stdout)');
  }
  return { count: flags.count, format: flags.format ?? formatOf(output) ?? 'json', output, json: flags.json === true, seed, now };
}

/** Same rule as the server's MOCK_SEED: an integer, empty counts as unset. */
function envSeed(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env.MOCK_SEED?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (/^[+-]?\d+$/.test(raw) && Number.isSafeInteger(value)) return value;
  throw new MockError('MOCK_ERR_CONFIG_INVALID', `MOCK_SEED: expected integer, got ${JSON.stringify(raw)} (unset it or pass --seed <int>)`);
}

function parseNow(text: string): number {
  const ms = parseInstant(text);
  if (Number.isNaN(ms)) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--now: not an ISO 8601 timestamp: ${JSON.stringify(text)} (e.g. --now 2025-01-01T00:00:00Z)`);
  }
  return ms;
}

function formatOf(file: string | undefined): DataFormat | undefined {
  const ext = file === undefined ? '' : path.extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.csv') return 'csv';
  return undefined;
}

/** The clock function for generator and template runtimes. */
export function clockOf(options: DataOptions): (() => number) | undefined {
  const pinned = options.now;
  return pinned === undefined ? undefined : () => pinned;
}
