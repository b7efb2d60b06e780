import { Flags } from '@oclif/core';
import { MockCommand } from '../../../cli/mock-command.js';
import { AdminClient, adminFlags } from '../../../cli/admin-client.js';

interface ProfileRow {
  name: string;
  description: string;
  builtin: boolean;
}

export default class ChaosProfileList extends MockCommand {
  static summary = 'List the chaos profiles of a running server (built-in and custom).';

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --admin-url http://127.0.0.1:9080 --json'];

  static flags = {
    ...adminFlags,
    json: Flags.boolean({ description: 'Print the profiles as JSON.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ChaosProfileList);
    const profiles = await new AdminClient(flags).get<ProfileRow[]>('chaos/profiles');
    if (flags.json) {
      this.log(JSON.stringify(profiles, null, 2));
      return;
    }
    const width = Math.max(...profiles.map((p) => p.name.length));
    for (const p of profiles) this.log(`${p.name.padEnd(width)}  ${p.builtin ? 'built-in' : 'custom  '}  ${p.description}`);
  }
}

