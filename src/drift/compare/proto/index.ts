import { statSync } from 'node:fs';
import path from 'node:path';
import { loadProtos } from '../../../../compiler/index.js';
import { MockError, isMockError } from '../../../../common/errors.js';
import type { Change } from '../types.js';
import { protoChanges } from './checks.js';
import { protoModel, type ProtoModel } from './model.js';

export interface ProtoCompareOptions {
  /** Folder relative inputs are read from; default: the current one. */
  cwd?: string;
}

/**
 * The changes from one set of .proto files to another (issue 39, "Compare"). Each side is a folder
 * (every .proto under it, imports resolved from it) or .proto files (imports resolved from their
 * common folder; only their own definitions compared). Files are read and resolved as
 * `mock build` reads grpc.proto_dir; a file that does not parse or resolve is a MockError.
 */
export async function compareProto(oldInput: string | readonly string[], newInput: string | readonly string[], options: ProtoCompareOptions = {}): Promise<Change[]> {
  const cwd = options.cwd ?? process.cwd();
  const [old, next] = [await readSide('old', oldInput, cwd), await readSide('new', newInput, cwd)];
  return protoChanges(old, next);
}

async function readSide(side: string, input: string | readonly string[], cwd: string): Promise<ProtoModel> {
  const inputs = (typeof input === 'string' ? [input] : [...input]).map((entry) => path.resolve(cwd, entry));
  if (inputs.length === 0) throw new MockError('MOCK_ERR_GRPC_PROTO_DIR', `the ${side} .proto files are not named: give a folder of .proto files or the files themselves`);
  const stats = inputs.map((file) => statSync(file, { throwIfNoEntry: false }));
  const absent = inputs.find((_, i) => stats[i] === undefined);
  if (absent !== undefined) throw new MockError('MOCK_ERR_GRPC_PROTO_DIR', `the ${side} .proto files: ${absent} not found; name a folder of .proto files or .proto files`);
  const folder = inputs.length === 1 && stats[0]!.isDirectory();
  for (const file of folder ? [] : inputs) {
    if (!file.endsWith('.proto')) throw new MockError('MOCK_ERR_GRPC_PROTO_DIR', `the ${side} .proto files: ${file} is not a .proto file; name a folder of .proto files or .proto files`);
  }
  const protoDir = folder ? inputs[0] : commonFolder(inputs);
  const only = folder ? undefined : inputs.map((file) => path.relative(protoDir, file).split(path.sep).join('/'));
  try {
    const [{ default: protobuf }, loaded] = await Promise.all([import('protobufjs'), loadProtos({ protoDir, cwd, outDir: 'generated', only })]);
    const problem = loaded.output.problems[0];
    if (problem !== undefined) {
      const at = `${path.join(protoDir, problem.file)}${problem.line === undefined ? '' : `:${problem.line}${problem.column === undefined ? '' : `:${problem.column}`}`}`;
      throw new MockError('MOCK_ERR_GRPC_PROTO_INVALID', `${at}: ${problem.message} (the ${side} .proto files; fix the file to compare them)`);
    }
    const names = new Set(only ?? loaded.built);
    return protoModel(loaded.root, names, protobuf);
  } catch (e) {
    if (isMockError(e) && !e.message.includes(`the ${side} `)) throw new MockError(e.code, `the ${side} .proto files: ${e.message.split('\n')[0]}`, e.exitCode);
    throw e;
  }
}

function commonFolder(files: readonly string[]): string {
  let folder = path.dirname(files[0]);
  while (!files.every((file) => file.startsWith(folder + path.sep)) && path.dirname(folder) !== folder) folder = path.dirname(folder);
  return folder;
}
