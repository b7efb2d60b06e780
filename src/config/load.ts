import path from 'node:path';
import { MockError } from '../../common/errors.js';
import { applyAliases } from './aliases.js';
import { displayPath } from './display-path.js';
import { envLayer } from './env.js';
import { readConfigFile } from './file.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import { layerFromSettings, type ConfigSource, type Layer, type Setting } from './layer.js';
import { findConfigFile, type ConfigLocation } from './lookup.js';
import { concatenateLists, scenarioLayers } from './scenario-layer.js';
import { resolvePaths, type EffectiveConfig } from './paths.js';
import { mergeLayers, sourcesOf } from './precedence.js';
import { checkSemantics } from './semantics.js';
import { asConfig, checkLayer, defaults } from './validate.js';

/** A value given on the command line: `--http-port 8080` is `{ flag: 'http-port', key: 'server.http_port', value: 8080 }`. */
export interface FlagSetting {
  flag: string;
  /** Dotted config key. */
  key: string;
  value: unknown;
}

export interface LoadConfigOptions {
  /** Where the file search starts and what relative env/flag paths resolve against; default process.cwd(). */
  cwd?: string;
  /** Default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The `--config` value, if given. */
  configPath?: string;
  /** Only the flags the user actually passed: each one outranks env, file and default. */
  flags?: readonly FlagSetting[];
  /**
   * A configuration given as a value (the SDK's options), read as a file over the config file:
   * `label` starts its error messages (`startMockServer options: proxy.rules[0].condition: …`).
   */
  given?: { label: string; values: unknown };
  /** false: no mock.yaml is searched for; only `configPath` (or MOCK_CONFIG_FILE in `env`) is read. Default true. */
  search?: boolean;
  /** false: the scenario in use (.mock/active-scenario.json) is not merged in. Default true. */
  scenario?: boolean;
}

export interface ResolvedConfig {
  config: EffectiveConfig;
  /** For every leaf key (written as in error messages: `server.http_port`), where its value came from. */
  sources: Record<string, ConfigSource>;
  /** The config file read, if any. */
  file?: ConfigLocation;
  /** What relative paths in the file resolve against: the config file's directory, else cwd. */
  projectDir: string;
}

/** Resolves the effective configuration: flags > environment > file > defaults, key by key. */
export function loadConfig(options: LoadConfigOptions = {}): ResolvedConfig {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const file = findConfigFile(cwd, env, options.configPath, options.search ?? true);
  const layers: Layer[] = [];
  // the scenario in use (mock scenario use) sits under mock.yaml: the project's own settings win
  const scenarios = options.scenario === false ? [] : scenarioLayers(file ? path.dirname(file.file) : cwd);
  layers.push(...scenarios);
  if (file) layers.push(fileLayer(file.file, displayPath(file.file, cwd)));
  if (options.given) layers.push(givenLayer(options.given.label, options.given.values));
  layers.push(envLayer(env));
  layers.push(layerFromSettings('flag', (options.flags ?? []).map(flagToSetting), 'MOCK_ERR_FLAG_INVALID'));

  const checked = layers.map((layer) => ({ source: layer.source, values: checkLayer(layer) }));
  if (scenarios.length > 0) concatenateLists(checked.slice(0, scenarios.length + (file ? 1 : 0)).map((layer) => layer.values));
  const merged = mergeLayers(defaults(), checked);
  applyAliases(merged);
  const config = asConfig(merged.values);
  const sources = sourcesOf(merged.values, merged.sources);
  const broken = checkSemantics(config, sources).map(({ path, text }) => {
    const source = sourceAt(sources, path);
    // of two file layers (a file and the SDK's values), the later one that sets the key
    const layer = layers.filter((l) => l.source === source).reverse().find((l, i, all) => i === all.length - 1 || sets(l.values, path));
    return { line: `${layer ? layer.name(path) : formatKeyPath(path)}: ${text}`, code: layer?.errorCode ?? 'MOCK_ERR_CONFIG_INVALID' };
  });
  if (broken.length > 0) throw new MockError(broken[0].code, broken.map(({ line }) => line).join('\n'));
  const projectDir = file ? path.dirname(file.file) : cwd;
  return { config: resolvePaths(config, sources, cwd, projectDir), sources, file, projectDir };
}

/** The source of the value at `path`, or of the list or leaf holding it. */
function sourceAt(sources: Readonly<Record<string, ConfigSource>>, path: KeyPath): ConfigSource | undefined {
  for (let end = path.length; end > 0; end--) {
    const source = sources[formatKeyPath(path.slice(0, end))];
    if (source) return source;
  }
  return undefined;
}

/** Whether a layer's values hold something at `path`. */
function sets(values: unknown, path: KeyPath): boolean {
  let node = values;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string | number, unknown>)[key];
  }
  return true;
}

function fileLayer(file: string, shown: string): Layer {
  return {
    source: 'file',
    values: readConfigFile(file, shown),
    name: (keyPath) => (keyPath.length > 0 ? `${shown}: ${formatKeyPath(keyPath)}` : shown),
    errorCode: 'MOCK_ERR_CONFIG_INVALID',
  };
}

function givenLayer(label: string, values: unknown): Layer {
  return {
    source: 'file',
    values,
    name: (keyPath) => (keyPath.length > 0 ? `${label}: ${formatKeyPath(keyPath)}` : label),
    errorCode: 'MOCK_ERR_CONFIG_INVALID',
  };
}

const flagToSetting = ({ flag, key, value }: FlagSetting): Setting => ({ label: `--${flag}`, key, value });
