import { Args } from '@oclif/core';
import { MockCommand } from '../../../cli/mock-command.js';
import { AdminClient, adminFlags } from '../../../cli/admin-client.js';

export default class ChaosProfileApply extends MockCommand {
  static summary = 'Apply a chaos profile to a running server, at once (its latency, bandwidth, losses and faults).';

  static examples = ['<%= config.bin %> <%= command.id %> slow_3g', '<%= config.bin %> <%= command.id %> flaky_wifi --admin-url http://127.0.0.1:9080'];

  static args = {
    name: Args.string({ description: 'Profile name: slow_3g, fast_3g, flaky_wifi, high_latency, unstable_connection, cable, dialup or a custom one.', required: true }),
  };

  static flags = { ...adminFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ChaosProfileApply);
    await new AdminClient(flags).call('POST', `chaos/profiles/${encodeURIComponent(args.name)}/apply`);
    this.log(`chaos profile ${args.name} applied`);
  }
}
