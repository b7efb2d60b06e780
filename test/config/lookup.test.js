import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { CONFIG_FILE_NAMES, findConfigFile } from '../../dist/src/config/index.js';

// Directories with no config file in them or any parent (t.testdir() lives inside the project).
const scratch = mkdtempSync(path.join(tmpdir(), 'mock-lookup-'));
t.teardown(() => rmSync(scratch, { recursive: true }));
const bare = () => mkdtempSync(path.join(scratch, 'dir-'));

t.test('names are searched in the documented order', async (t) => {
  t.same(CONFIG_FILE_NAMES, ['mock.yaml', 'mock.yml', '.mock.yaml', '.mock.yml']);
  for (let i = 0; i < CONFIG_FILE_NAMES.length; i++) {
    const dir = bare();
    for (const name of CONFIG_FILE_NAMES.slice(i)) writeFileSync(path.join(dir, name), '');
    t.same(findConfigFile(dir, {}), { file: path.join(dir, CONFIG_FILE_NAMES[i]), via: 'search' }, CONFIG_FILE_NAMES[i]);
  }
});

t.test('dot-prefixed names are found alone', async (t) => {
  for (const name of ['.mock.yaml', '.mock.yml']) {
    const dir = bare();
    writeFileSync(path.join(dir, name), '');
    t.equal(findConfigFile(dir, {})?.file, path.join(dir, name));
  }
});

t.test('parent directories are searched, nearest first', async (t) => {
  const root = bare();
  const deep = path.join(root, 'a', 'b', 'c');
  mkdirSync(deep, { recursive: true });
  writeFileSync(path.join(root, 'mock.yaml'), '');
  t.equal(findConfigFile(deep, {})?.file, path.join(root, 'mock.yaml'), 'found two levels up');
  writeFileSync(path.join(root, 'a', '.mock.yml'), '');
  t.equal(findConfigFile(deep, {})?.file, path.join(root, 'a', '.mock.yml'), 'a nearer file wins over a preferred name further up');
});

t.test('a directory named like a config file is skipped', async (t) => {
  const dir = bare();
  mkdirSync(path.join(dir, 'mock.yaml'));
  writeFileSync(path.join(dir, 'mock.yml'), '');
  t.equal(findConfigFile(dir, {})?.file, path.join(dir, 'mock.yml'));
});

t.test('nothing found is fine', async (t) => {
  t.equal(findConfigFile(bare(), {}), undefined);
});

t.test('--config wins over MOCK_CONFIG_FILE, which wins over the search', async (t) => {
  const dir = bare();
  for (const name of ['mock.yaml', 'flag.yaml', 'env.yaml']) writeFileSync(path.join(dir, name), '');
  const env = { MOCK_CONFIG_FILE: 'env.yaml' };
  t.same(findConfigFile(dir, env, 'flag.yaml'), { file: path.join(dir, 'flag.yaml'), via: 'flag' });
  t.same(findConfigFile(dir, env), { file: path.join(dir, 'env.yaml'), via: 'env' });
  t.same(findConfigFile(dir, { MOCK_CONFIG_FILE: '' }), { file: path.join(dir, 'mock.yaml'), via: 'search' }, 'empty variable is unset');
  t.same(findConfigFile(dir, {}, path.join(dir, 'env.yaml')), { file: path.join(dir, 'env.yaml'), via: 'flag' }, 'absolute path');
});

t.test('an explicit path that does not exist is an error naming where it came from', async (t) => {
  const dir = bare();
  t.throws(() => findConfigFile(dir, {}, './x.yaml'), {
    code: 'MOCK_ERR_CONFIG_NOT_FOUND',
    message: 'config not found: ./x.yaml (checked --config)',
  });
  t.throws(() => findConfigFile(dir, { MOCK_CONFIG_FILE: 'missing.yml' }), {
    code: 'MOCK_ERR_CONFIG_NOT_FOUND',
    message: 'config not found: missing.yml (checked MOCK_CONFIG_FILE)',
  });
  writeFileSync(path.join(dir, 'mock.yaml'), '');
  t.throws(() => findConfigFile(dir, {}, './x.yaml'), { code: 'MOCK_ERR_CONFIG_NOT_FOUND' }, 'no fallback to the search');
  t.throws(() => findConfigFile(dir, {}, '.'), {
    code: 'MOCK_ERR_CONFIG_NOT_FOUND',
    message: 'config is not a file: . (checked --config); pass the path of a YAML file',
  });
});
