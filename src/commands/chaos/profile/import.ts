import { readFile } from 'node:fs/promises';
import { Args } from '@oclif/core';
import { MockError } from '../../../../common/errors.js';
import { MockCommand } from '../../../cli/mock-command.js';
import { AdminClient, adminFlags } from '../../../cli/admin-client.js';

export default class ChaosProfileImport extends MockCommand {
  static summary = 'Add a chaos profile document (from export, or written by hand) to a running server, replacing a custom one of the same name.';

  static examples = ['<%= config.bin %> <%= command.id %> my-profile.chaos.json'];

  static args = {
    file: Args.string({ description: 'JSON profile document: {"name", "description", "tags", "chaos_config"}.', required: true }),
  };

  static flags = { ...adminFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ChaosProfileImport);
    let document: unknown;
    try {
      document = JSON.parse(await readFile(args.file, 'utf8'));
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new MockError('MOCK_ERR_FLAG_INVALID', `${args.file}: cannot read a JSON profile document (${why}); give a file written by mock chaos profile export`);
    }
    const data = await new AdminClient(flags).call<{ name: string }>('POST', 'chaos/profiles/import', document);
    this.log(`chaos profile ${data.name} imported`);
  }
}
