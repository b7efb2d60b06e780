import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { fixtureConflicts, listFixtureFiles, problemLine, readFixtureFile, type FixtureFile, type FixtureProblem } from '../../common/fixtures/index.js';
import { fixtureFlags, fixtureSettings, requireFolder } from '../cli/fixture-options.js';
import { MockCommand } from '../cli/mock-command.js';
import { displayPath } from '../config/index.js';

export default class ValidateFixtures extends MockCommand {
  static summary = 'Lint fixture files: one line per problem (file: field: message), exit 1 on any.';

  static description = [
    'Check fixture files against the fixture format (README, "Fixture files"): JSON, required fields and their types, base64 bodies, timestamps,',
    'and no two fixtures with the same fingerprint (under the core.fixtures rules of mock.yaml) and the same metadata.sequence.',
    'With --dir, the *.json files below <dir>/http/ when that folder exists (other protocols keep their own formats beside it),',
    'else every *.json file below <dir>, so --dir may also name the http folder itself or any folder of fixture files.',
    'Prints "N fixture files, no problems" and exits 0 when clean; else one line per problem and exit 1.',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --dir fixtures',
    '<%= config.bin %> <%= command.id %> --dir fixtures/http/v1/pets',
    '<%= config.bin %> <%= command.id %> --file fixtures/http/get-v1-pets-3fa9c2d1e0-0001.json',
    '<%= config.bin %> <%= command.id %> -c mocks/mock.yaml',
  ];

  static flags = {
    ...fixtureFlags,
    file: Flags.string({ description: 'Lint this fixture file (repeat for several) instead of a folder', helpValue: '<file>', multiple: true, exclusive: ['dir'] }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ValidateFixtures);
    const settings = fixtureSettings(flags);
    let files: string[];
    let root: string;
    if (flags.file !== undefined) {
      files = flags.file.map((file) => path.resolve(file));
      root = process.cwd();
    } else {
      requireFolder(this.id ?? 'validate-fixtures', settings.dir);
      const http = path.join(settings.dir, 'http');
      root = settings.dir;
      files = isFolder(http) ? listFixtureFiles(settings.dir) : jsonFilesBelow(settings.dir);
    }

    const problems: FixtureProblem[] = [];
    const fixtures: FixtureFile[] = [];
    for (const file of files) {
      const read = readFixtureFile(root, file);
      if ('loaded' in read) fixtures.push(read.loaded);
      else problems.push(...read.problems);
    }
    problems.push(...fixtureConflicts(fixtures, settings.rules, (file) => displayPath(file)));
    if (problems.length === 0) {
      this.log(`${files.length} fixture ${files.length === 1 ? 'file' : 'files'}, no problems`);
      return;
    }
    for (const problem of problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) this.log(problemLine(problem, displayPath(problem.file)));
    this.exit(1);
  }
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** `*.json` files at any depth, as listFixtureFiles takes them (no dot-files, no files in dot-folders). */
function jsonFilesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.json') && !name.split(path.sep).some((part) => part.startsWith('.')))
    .map((name) => path.join(dir, name))
    .sort();
}
