import { writeFile } from 'node:fs/promises';
import { Args, Flags } from '@oclif/core';
import { MockCommand } from '../../../cli/mock-command.js';
import { AdminClient, adminFlags } from '../../../cli/admin-client.js';

export default class ChaosProfileExport extends MockCommand {
  static summary = 'Print (or save) a chaos profile of a running server as a JSON document that import takes back.';

  static examples = ['<%= config.bin %> <%= command.id %> slow_3g', '<%= config.bin %> <%= command.id %> my-profile --output my-profile.chaos.json'];

  static args = {
    name: Args.string({ description: 'Profile name.', required: true }),
  };

  static flags = {
    ...adminFlags,
    output: Flags.string({ char: 'o', description: 'Write the document to this file instead of stdout.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ChaosProfileExport);
    const data = await new AdminClient(flags).call<unknown>('GET', `chaos/profiles/${encodeURIComponent(args.name)}/export?format=json`);
    const text = `${JSON.stringify(data, null, 2)}\n`;
    if (flags.output === undefined) process.stdout.write(text);
    else {
      await writeFile(flags.output, text);
      this.log(`chaos profile ${args.name} written to ${flags.output}`);
    }
  }
}
