import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import { checkModule, MODULE_FILE, RECORD_FILE, readInstalled, Sandbox, type InstallRecord, type InstalledPlugin, type PluginLimits, type PluginManifest } from '../../runtime/index.js';

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** `sha256:<hex>` (or the bare hex) as 64 lower-case hex digits; throws naming the flag. */
export function parseChecksum(value: string): string {
  const hex = value.replace(/^sha256:/i, '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new MockError('MOCK_ERR_FLAG_INVALID', `--checksum ${value} is not a SHA-256 checksum: write sha256:<64 hex digits>`);
  return hex;
}

/** Refuses bytes whose digest is not `expected` (hex), before anything is written. */
export function verifyChecksum(bytes: Uint8Array, expected: string, source: string): void {
  const actual = sha256(bytes);
  if (actual !== expected)
    throw new MockError('MOCK_ERR_PLUGIN_CHECKSUM', `checksum mismatch for ${source}: expected sha256:${expected}, got sha256:${actual} (nothing was installed; check the source or the checksum)`);
}

/** Checks a module against the ABI and the limits, loading it in a sandbox (its ABI version); its manifest, or a MockError listing every problem. */
export function validateModule(bytes: Uint8Array, limits: PluginLimits, what: string): PluginManifest {
  const report = checkModule(bytes, limits);
  if (report.manifest !== undefined && report.problems.length === 0) {
    const sandbox = new Sandbox(bytes, Object.keys(report.manifest.actions), limits, report.usesWasi);
    try {
      sandbox.start();
    } catch (e) {
      report.problems.push((e as Error).message);
    } finally {
      sandbox.stop();
    }
  }
  if (report.problems.length > 0 || report.manifest === undefined)
    throw new MockError('MOCK_ERR_PLUGIN_INVALID', `${what} is not a valid plugin: ${report.problems.join('; ')} (docs/plugins.md, "ABI")`);
  return report.manifest;
}

/** The installed plugin of that name, or a one-line MockError. */
export function installedPlugin(dir: string, name: string): InstalledPlugin {
  const found = readInstalled(dir).find((p) => p.record.name === name);
  if (found === undefined) throw new MockError('MOCK_ERR_PLUGIN_NOT_INSTALLED', `plugin ${name} is not installed in ${dir} (mock plugin list shows what is; mock plugin install adds one)`);
  return found;
}

/**
 * Writes the plugin's folder beside its final place and renames it there: a reader sees the old
 * plugin or the new one, never half of one. A plugin installed already is replaced only with `force`.
 */
export function writePlugin(dir: string, bytes: Uint8Array, record: InstallRecord, force: boolean): void {
  const target = path.join(dir, record.name);
  if (existsSync(target) && !force) throw new MockError('MOCK_ERR_PLUGIN_EXISTS', `plugin ${record.name} is installed already (${target}); add --force to replace it, or use mock plugin update`);
  mkdirSync(dir, { recursive: true });
  const staging = path.join(dir, `.staging-${randomBytes(6).toString('hex')}`);
  mkdirSync(staging);
  try {
    writeFileSync(path.join(staging, MODULE_FILE), bytes);
    writeFileSync(path.join(staging, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
    const old = existsSync(target) ? path.join(dir, `.old-${randomBytes(6).toString('hex')}`) : undefined;
    if (old !== undefined) renameSync(target, old);
    renameSync(staging, target);
    if (old !== undefined) rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Moves the plugin's folder out of the way, then deletes it. */
export function removePlugin(dir: string, name: string): void {
  const target = installedPlugin(dir, name).dir;
  const old = path.join(dir, `.old-${randomBytes(6).toString('hex')}`);
  renameSync(target, old);
  rmSync(old, { recursive: true, force: true });
}
