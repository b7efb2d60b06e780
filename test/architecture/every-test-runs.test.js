// Every test file on disk is one tap runs: tap leaves out whole folders by name (any folder called
// `fixtures`, for one), and a test it never runs fails no one.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../helpers/cli.js';

const onDisk = readdirSync(path.join(root, 'test'), { recursive: true })
  .filter((file) => file.endsWith('.test.js'))
  .map((file) => path.join('test', file))
  .sort();
const listed = execFileSync(path.join(root, 'node_modules', '.bin', 'tap'), ['list'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((line) => line.endsWith('.test.js'))
  .sort();

t.ok(onDisk.length > 200, `${onDisk.length} test files on disk`);
t.same(
  onDisk.filter((file) => !listed.includes(file)),
  [],
  'tap runs every one of them (a folder it skips by name must be renamed)',
);
