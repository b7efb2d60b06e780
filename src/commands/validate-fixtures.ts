import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { fixtureConflicts, listFixtureFiles, problemLine, readFixtureFile, type FixtureFile, type FixtureProblem } from '../../common/fixtures/index.js';
import { GRPC_FIXTURES, parseRecording, recordingProblemLine } from '../../common/grpc/recording.js';
import { WEBSOCKET_FIXTURES, parseScript, scriptFilesBelow, scriptProblemLine } from '../../common/websocket/index.js';
import { fixtureFlags, fixtureSettings, requireFolder } from '../cli/fixture-options.js';
import { MockCommand } from '../cli/mock-command.js';
import { displayPath } from '../config/index.js';

export default class ValidateFixtures extends MockCommand {
  static summary = 'Lint fixture files, WebSocket replay scripts and recorded gRPC calls: one line per problem, exit 1 on any.';

  static description = [
    'Check fixture files against the fixture format (docs/fixtures.md, "Fixture files"): JSON, required fields and their types, base64 bodies, timestamps,',
    'and no two fixtures with the same fingerprint (under the core.fixtures rules of mock.yaml) and the same metadata.sequence.',
    'WebSocket replay scripts and recorded gRPC calls (*.jsonl) are checked line by line, as mock serve reads them (the messages of a gRPC',
    'recording are checked against their types when mock serve loads it, which needs the build).',
    'With --dir, the *.json files below <dir>/http/ and the *.jsonl files below <dir>/websocket/ and <dir>/grpc/ when one of those folders exists,',
    'else every *.json and *.jsonl file below <dir>, so --dir may also name the http folder itself or any folder of fixture files',
    '(a *.jsonl file in a grpc folder, or whose first line names a method and a mode, is a gRPC recording).',
    'Prints "N fixture files, no problems" and exits 0 when clean; else one line per problem (file: field: message for a fixture,',
    'file:line: message for a script) and exit 1.',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --dir fixtures',
    '<%= config.bin %> <%= command.id %> --dir fixtures/http/v1/pets',
    '<%= config.bin %> <%= command.id %> --file fixtures/http/get-v1-pets-3fa9c2d1e0-0001.json',
    '<%= config.bin %> <%= command.id %> --file fixtures/websocket/chat/session-0001.jsonl',
    '<%= config.bin %> <%= command.id %> --file fixtures/grpc/helloworld.Greeter/SayHello/call-0001.jsonl',
    '<%= config.bin %> <%= command.id %> -c mocks/mock.yaml',
  ];

  static flags = {
    ...fixtureFlags,
    file: Flags.string({ description: 'Lint this fixture file, or replay script when it ends in .jsonl (repeat for several), instead of a folder', helpValue: '<file>', multiple: true, exclusive: ['dir'] }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ValidateFixtures);
    const settings = fixtureSettings(flags);
    let files: string[];
    let scripts: string[];
    let root: string;
    if (flags.file !== undefined) {
      const given = flags.file.map((file) => path.resolve(file));
      files = given.filter((file) => !file.endsWith('.jsonl'));
      scripts = given.filter((file) => file.endsWith('.jsonl'));
      root = process.cwd();
    } else {
      requireFolder(this.id ?? 'validate-fixtures', settings.dir);
      const websocket = path.join(settings.dir, WEBSOCKET_FIXTURES);
      const grpc = path.join(settings.dir, GRPC_FIXTURES);
      root = settings.dir;
      if (isFolder(path.join(settings.dir, 'http')) || isFolder(websocket) || isFolder(grpc)) {
        files = listFixtureFiles(settings.dir);
        scripts = [...scriptFilesBelow(websocket), ...scriptFilesBelow(grpc)];
      } else {
        files = jsonFilesBelow(settings.dir);
        scripts = scriptFilesBelow(settings.dir);
      }
    }

    const problems: FixtureProblem[] = [];
    const fixtures: FixtureFile[] = [];
    for (const file of files) {
      const read = readFixtureFile(root, file);
      if ('loaded' in read) fixtures.push(read.loaded);
      else problems.push(...read.problems);
    }
    problems.push(...fixtureConflicts(fixtures, settings.rules, (file) => displayPath(file)));
    const calls = scripts.filter((file) => isGrpcRecording(file, root));
    const sessions = scripts.filter((file) => !calls.includes(file));
    const scriptProblems = [...sessions.flatMap((file) => scriptProblemsOf(file)), ...calls.flatMap((file) => recordingProblemsOf(file))];
    if (problems.length === 0 && scriptProblems.length === 0) {
      const counts = [
        ...(files.length > 0 || scripts.length === 0 ? [`${files.length} fixture ${files.length === 1 ? 'file' : 'files'}`] : []),
        ...(sessions.length > 0 ? [`${sessions.length} WebSocket ${sessions.length === 1 ? 'script' : 'scripts'}`] : []),
        ...(calls.length > 0 ? [`${calls.length} gRPC ${calls.length === 1 ? 'recording' : 'recordings'}`] : []),
      ];
      this.log(`${counts.join(', ')}, no problems`);
      return;
    }
    for (const problem of problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) this.log(problemLine(problem, displayPath(problem.file)));
    for (const line of scriptProblems) this.log(line);
    this.exit(1);
  }
}

/** A replay script's problems as `file:line: message` lines, as mock serve would refuse it. */
function scriptProblemsOf(file: string): string[] {
  const shown = displayPath(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return [`${shown}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`];
  }
  return parseScript(text)
    .problems.sort((a, b) => a.line - b.line)
    .map((problem) => scriptProblemLine(shown, problem));
}

/** A recorded gRPC call's problems as `file:line: message` lines, as mock serve would skip it. */
function recordingProblemsOf(file: string): string[] {
  const shown = displayPath(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return [`${shown}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`];
  }
  return parseRecording(text).problems.map((problem) => recordingProblemLine(shown, problem));
}

/** A *.jsonl file in a grpc folder (below the fixtures folder), or whose first line names a method and a mode, not a WebSocket script's line. */
function isGrpcRecording(file: string, root: string): boolean {
  if (path.relative(root, file).split(path.sep).includes(GRPC_FIXTURES)) return true;
  let first: unknown;
  try {
    first = JSON.parse(readFileSync(file, 'utf8').split('\n').find((line) => line.trim() !== '') ?? '');
  } catch {
    return false;
  }
  return first !== null && typeof first === 'object' && 'method' in first && 'mode' in first && !('dir' in first);
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
