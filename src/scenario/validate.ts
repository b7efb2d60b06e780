import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { isMockError } from '../../common/errors.js';
import { loadConfig, scenarioConfigProblems } from '../config/index.js';
import { newAjv } from '../../common/ajv.js';
import { checkManifest, MANIFEST_FILE, readManifestFile, type ScenarioManifest } from './manifest.js';

export const CONFIG_FILE = 'config.yaml';
export const OPENAPI_FILE = 'openapi.json';
const FIXTURE_KINDS = new Set(['http', 'grpc', 'websocket']);
const REQUIRED_FILES = ['README.md', 'CHANGELOG.md'];

export interface ScenarioReport {
  dir: string;
  manifest?: ScenarioManifest;
  /** One line each, naming the file and key. */
  errors: string[];
}

/** Checks a scenario folder: scenario.yaml, config.yaml, a description, fixtures, README.md and CHANGELOG.md. */
export function validateScenario(dir: string): ScenarioReport {
  const errors: string[] = [];
  let manifest: ScenarioManifest | undefined;
  try {
    const value = readManifestFile(dir);
    const problems = checkManifest(value);
    errors.push(...problems);
    if (problems.length === 0) {
      manifest = value as ScenarioManifest;
      errors.push(...checkEntitySchemas(manifest));
    }
  } catch (error) {
    errors.push((error as Error).message);
  }
  errors.push(...checkConfig(dir));
  errors.push(...checkDescription(dir));
  errors.push(...checkFixtures(dir));
  for (const name of REQUIRED_FILES) if (!isFile(path.join(dir, name))) errors.push(`${name}: missing; a scenario documents itself in README.md and its versions in CHANGELOG.md`);
  return { dir, manifest, errors };
}

/** Each entity's schema compiles (mock serve compiles it at start). */
function checkEntitySchemas(manifest: ScenarioManifest): string[] {
  const entities = (manifest.vbr_entities ?? []).filter((e) => e.schema !== undefined);
  if (entities.length === 0) return [];
  const ajv = newAjv({ allErrors: false, strict: false, validateFormats: false });
  return entities.flatMap((entity, i) => {
    try {
      ajv.compile(entity.schema as object);
      return [];
    } catch (error) {
      return [`${MANIFEST_FILE}: vbr_entities[${i}].schema: not a valid JSON Schema (${(error as Error).message})`];
    }
  });
}

function checkConfig(dir: string): string[] {
  const file = path.join(dir, CONFIG_FILE);
  if (!isFile(file)) return [`${CONFIG_FILE}: missing; write the mock.yaml settings the scenario brings (an empty file is fine)`];
  let values: unknown;
  try {
    values = parse(readFileSync(file, 'utf8')) ?? {};
  } catch (error) {
    return [`${CONFIG_FILE}: invalid YAML: ${(error as Error).message.split('\n')[0]}`];
  }
  if (typeof values !== 'object' || Array.isArray(values)) return [`${CONFIG_FILE}: must be a mapping of mock.yaml settings`];
  const problems = scenarioConfigProblems(values as Record<string, unknown>);
  if (problems.length > 0) return problems;
  try {
    loadConfig({ cwd: dir, configPath: CONFIG_FILE, search: false, env: {}, scenario: false });
    return [];
  } catch (error) {
    if (isMockError(error)) return error.message.split('\n');
    throw error;
  }
}

function checkDescription(dir: string): string[] {
  const openapi = path.join(dir, OPENAPI_FILE);
  if (isFile(openapi)) {
    try {
      const doc = JSON.parse(readFileSync(openapi, 'utf8')) as Record<string, unknown>;
      if (typeof doc.openapi !== 'string' && typeof doc.swagger !== 'string') return [`${OPENAPI_FILE}: has no openapi (or swagger) version key; it must be an OpenAPI 3.x or Swagger 2.0 document`];
      return [];
    } catch (error) {
      return [`${OPENAPI_FILE}: not JSON: ${(error as Error).message}`];
    }
  }
  const files = walk(dir);
  if (files.some((file) => file.endsWith('.proto') || file.endsWith('.graphql') || file.endsWith('.graphqls'))) return [];
  return [`${OPENAPI_FILE}: missing; a scenario carries an openapi.json, .proto files or a .graphql schema`];
}

function checkFixtures(dir: string): string[] {
  const root = path.join(dir, 'fixtures');
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) return [];
  const errors: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !FIXTURE_KINDS.has(entry.name)) {
      errors.push(`fixtures/${entry.name}: unexpected; fixtures/ holds the folders http, grpc and websocket`);
      continue;
    }
    for (const file of walk(path.join(root, entry.name))) {
      if (!file.endsWith('.json')) continue;
      try {
        JSON.parse(readFileSync(path.join(root, entry.name, file), 'utf8'));
      } catch (error) {
        errors.push(`fixtures/${entry.name}/${file}: not JSON: ${(error as Error).message}`);
      }
    }
  }
  return errors;
}

/** Files under `dir`, relative, with `/`; symbolic links are not followed. */
function walk(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath: string; isFile(): boolean }>)
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

const isFile = (file: string): boolean => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
