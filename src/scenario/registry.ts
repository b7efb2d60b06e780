import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { publish as npmPublish } from 'libnpmpublish';
import fetch from 'npm-registry-fetch';
import pacote from 'pacote';
import * as tar from 'tar';
import { MockError } from '../../common/errors.js';
import type { ScenarioManifest } from './manifest.js';
import { validateScenario } from './validate.js';

/** The keyword every scenario package carries: what search looks for. */
export const SCENARIO_KEYWORD = 'mock-scenario';
/** The keyword carrying a scenario's category (`category:ecommerce`); its tags are keywords as they are. */
export const categoryKeyword = (category: string): string => `category:${category}`;

export interface MarketEntry {
  name: string;
  version: string;
  description: string;
  category?: string;
  tags: string[];
  publisher?: string;
  date?: string;
}

/**
 * Searches the registry's /-/v1/search for packages with the scenario keyword (the public registry
 * and Verdaccio both answer it), keeping those of the category and carrying every tag asked for.
 */
export async function searchRegistry(npm: Record<string, unknown>, query: { text?: string; category?: string; tags?: string[]; size?: number }): Promise<MarketEntry[]> {
  const size = Math.min(query.size ?? 100, 250);
  type Answer = {
    objects?: Array<{ package: { name: string; version?: string; 'dist-tags'?: Record<string, string>; description?: string; keywords?: string[]; publisher?: { username?: string }; date?: string } }>;
  };
  const ask = (text: string): Promise<Answer> => registryCall(`search ${text}`, () => fetch.json(`/-/v1/search?text=${encodeURIComponent(text)}&size=${size}`, npm) as Promise<Answer>);
  // the public registry understands the keywords: qualifier; Verdaccio does not (it matches names and
  // descriptions, and an empty text lists everything): then the keyword is checked here
  let answer = await ask([`keywords:${SCENARIO_KEYWORD}`, query.text].filter(Boolean).join(' '));
  if ((answer.objects ?? []).length === 0) answer = await ask(query.text ?? '');
  return (answer.objects ?? [])
    .map(({ package: p }) => ({ p, keywords: p.keywords ?? [] }))
    .filter(({ keywords }) => keywords.includes(SCENARIO_KEYWORD))
    .filter(({ keywords }) => !query.category || keywords.includes(categoryKeyword(query.category)))
    .filter(({ keywords }) => (query.tags ?? []).every((tag) => keywords.includes(tag)))
    .map(({ p, keywords }) => ({
      name: p.name,
      // Verdaccio answers dist-tags instead of the version
      version: p.version ?? p['dist-tags']?.latest ?? '',
      description: p.description ?? '',
      category: keywords.find((k) => k.startsWith('category:'))?.slice('category:'.length),
      tags: keywords.filter((k) => k !== SCENARIO_KEYWORD && !k.startsWith('category:')),
      publisher: p.publisher?.username,
      date: p.date,
    }));
}

/** The registry's view of one scenario: its latest manifest, its versions and its reviews (docs/scenarios.md). */
export async function registryInfo(npm: Record<string, unknown>, name: string): Promise<Record<string, unknown>> {
  const packument = (await registryCall(name, () => pacote.packument(name, { ...npm, fullMetadata: true } as pacote.Options))) as unknown as {
    'dist-tags': Record<string, string>;
    versions: Record<string, { description?: string; keywords?: string[]; mockScenario?: Record<string, unknown>; dist?: { integrity?: string; tarball?: string } }>;
  };
  const latest = packument['dist-tags'].latest;
  const manifest = packument.versions[latest] ?? {};
  if (!(manifest.keywords ?? []).includes(SCENARIO_KEYWORD)) {
    throw new MockError('MOCK_ERR_SCENARIO_REGISTRY', `${name}: a package of the registry, but not a scenario (it lacks the ${SCENARIO_KEYWORD} keyword)`);
  }
  const stars = Object.keys((packument as { users?: Record<string, boolean> }).users ?? {}).length;
  return {
    name,
    latest,
    versions: Object.keys(packument.versions),
    description: manifest.description,
    ...manifest.mockScenario,
    stars,
    integrity: manifest.dist?.integrity,
    tarball: manifest.dist?.tarball,
  };
}

/**
 * Publishes a scenario folder as an npm package with the user's registry credentials (.npmrc):
 * package.json is written from scenario.yaml (name, version, description, author, the scenario
 * keyword, `category:<category>`, the tags, and `mockScenario` {category, tags, dependencies,
 * entities}) in a copy, packed with node-tar as npm packs (`package/`), sent by libnpmpublish.
 */
export async function publishScenario(dir: string, npm: Record<string, unknown>, options: { tag?: string; access?: 'public' | 'restricted' } = {}): Promise<{ name: string; version: string }> {
  const report = validateScenario(dir);
  if (report.errors.length > 0) throw new MockError('MOCK_ERR_SCENARIO_INVALID', `${dir}: not a valid scenario, not published: ${report.errors[0]}`);
  const m = report.manifest as ScenarioManifest;
  const own = readPackageJson(dir);
  if (own && (own.name !== m.name || own.version !== m.version)) {
    throw new MockError(
      'MOCK_ERR_SCENARIO_INVALID',
      `${dir}/package.json: names ${own.name}@${own.version} but scenario.yaml ${m.name}@${m.version}; make them agree (or delete package.json: publish writes one)`,
    );
  }
  const manifest = {
    ...own,
    name: m.name,
    version: m.version,
    description: m.description,
    author: m.author,
    keywords: [...new Set([...((own?.keywords as string[] | undefined) ?? []), SCENARIO_KEYWORD, categoryKeyword(m.category), ...(m.tags ?? [])])],
    mockScenario: { category: m.category, tags: m.tags ?? [], dependencies: m.dependencies ?? [], entities: (m.vbr_entities ?? []).map((e) => e.name) },
  };
  const copy = mkdtempSync(path.join(os.tmpdir(), 'mock-scenario-publish-'));
  try {
    // dot files (.npmrc with its token, .git, .mock) and node_modules never leave the machine
    const files = readdirSync(dir).filter((name) => !name.startsWith('.') && name !== 'node_modules' && name !== 'package.json');
    const stage = path.join(copy, 'package');
    const packed = (file: string): boolean => !path.basename(file).startsWith('.') && path.basename(file) !== 'node_modules';
    for (const name of files) cpSync(path.join(dir, name), path.join(stage, name), { recursive: true, filter: packed });
    writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const file = path.join(copy, 'package.tgz');
    await tar.c({ gzip: true, portable: true, file, cwd: copy }, ['package']);
    const tarball = readFileSync(file);
    await registryCall(`publish ${m.name}@${m.version}`, () => npmPublish(manifest as never, tarball, { ...npm, defaultTag: options.tag ?? 'latest', access: options.access ?? 'public' } as never));
    return { name: m.name, version: m.version };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function readPackageJson(dir: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Runs a registry call; its failure becomes one line naming what was asked and the fix. */
export async function registryCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof MockError) throw error;
    const e = error as Error & { statusCode?: number; code?: string };
    if (e.statusCode === 404 || e.code === 'E404')
      throw new MockError('MOCK_ERR_SCENARIO_SOURCE', `${what}: not found on the registry; check the name and the registry (--registry, scenarios.registry, .npmrc)`);
    const fix =
      e.statusCode === 401 || e.code === 'ENEEDAUTH' || e.code === 'E401'
        ? 'log in to the registry (npm login --registry <url>) so .npmrc holds a token'
        : e.statusCode === 403 || e.statusCode === 409 || e.code === 'E403' || e.code === 'E409'
          ? 'the registry refused it: a version that exists already cannot be published again, and the token needs publish rights'
          : 'check the registry URL (--registry, .npmrc) and that it is reachable';
    throw new MockError('MOCK_ERR_SCENARIO_REGISTRY', `${what}: ${e.message.split('\n')[0]}; ${fix}`);
  }
}

/**
 * A review is npm's star (`npm star`): the packument's `users` map gains (or, `remove`, loses) the
 * user the token belongs to. Any npm registry keeps it; search and info show the count.
 */
export async function reviewScenario(npm: Record<string, unknown>, name: string, remove = false): Promise<{ user: string; stars: number }> {
  const whoami = (await registryCall('whoami', () => fetch.json('/-/whoami', npm))) as { username?: string };
  const user = whoami.username;
  if (!user) throw new MockError('MOCK_ERR_SCENARIO_REGISTRY', `review ${name}: the registry does not know who you are; log in (npm login --registry <url>) so .npmrc holds a token`);
  const encoded = name.replace('/', '%2f');
  const packument = (await registryCall(name, () => fetch.json(`/${encoded}?write=true`, npm))) as { _rev: string; users?: Record<string, boolean> };
  const users = { ...(packument.users ?? {}) };
  if (remove) delete users[user];
  else users[user] = true;
  await registryCall(`review ${name}`, () => fetch(`/${encoded}/-rev/${packument._rev}`, { ...npm, method: 'PUT', body: { _id: name, _rev: packument._rev, users } }));
  return { user, stars: Object.keys(users).length };
}
