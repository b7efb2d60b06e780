import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { MockError } from '../../../common/errors.js';
import { writeWhole } from '../../../common/write-whole.js';
import { MockCommand } from '../../cli/mock-command.js';

export default class ContractDiffApplyPatch extends MockCommand {
  static summary = 'Apply a JSON Patch (RFC 6902) to an API description, keeping its YAML comments and key order, and check the result is still valid.';

  static description = [
    'Applies every operation of --patch (add, remove, replace, move, copy, test) to --spec, or none of them: a patch that does not apply names the operation and changes nothing.',
    'A YAML description keeps its comments, key order and quoting where the patch did not reach; a JSON one keeps its key order and indentation.',
    'The result must still be a valid OpenAPI 3.x or Swagger 2.0 document (fields and values as its version defines them, $refs that resolve), or nothing is written.',
    'Writes to --output atomically (it may be --spec itself), or prints to stdout without it.',
    'Exit codes: 0 when written; 2 when an input cannot be read, the patch does not apply or its result is not valid (one line on stderr).',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> --spec openapi.yaml --patch fix.json --output openapi.yaml',
    '<%= config.bin %> <%= command.id %> --spec openapi.yaml --patch fix.json > patched.yaml',
  ];

  static flags = {
    spec: Flags.string({ description: 'The OpenAPI 3.x or Swagger 2.0 description to patch (.yaml, .yml or .json)', helpValue: '<path>', required: true }),
    patch: Flags.string({ description: 'The JSON Patch: a JSON array of RFC 6902 operations, as generate-patch writes it', helpValue: '<path>', required: true }),
    output: Flags.string({ char: 'o', description: 'Where to write the patched description (atomically; it may be --spec itself) [default: stdout]', helpValue: '<path>' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ContractDiffApplyPatch);
    const { parsePatch, patchDescription } = await import('../../drift/patch/index.js');
    const specText = readInput('--spec', flags.spec, 'MOCK_ERR_SPEC_NOT_FOUND');
    const operations = parsePatch(readInput('--patch', flags.patch, 'MOCK_ERR_PATCH_INVALID'), flags.patch);
    const patched = await patchDescription(specText, { name: flags.spec, location: path.resolve(flags.spec) }, operations, flags.patch);
    if (patched.layoutLost !== undefined) process.stderr.write(`warning: ${flags.spec}: its comments and layout could not be kept (${patched.layoutLost}); written from the data\n`);
    if (flags.output === undefined) {
      process.stdout.write(patched.text);
      return;
    }
    try {
      writeWhole(flags.output, patched.text);
    } catch (e) {
      throw new MockError('MOCK_ERR_FLAG_INVALID', `--output ${flags.output}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; pass a writable file path)`, 2);
    }
    process.stderr.write(`${flags.output}: ${operations.length} operation(s) applied\n`);
  }
}

function readInput(flag: string, file: string, code: 'MOCK_ERR_SPEC_NOT_FOUND' | 'MOCK_ERR_PATCH_INVALID'): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new MockError(code, `${flag} ${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); pass an existing file`, 2);
  }
}
