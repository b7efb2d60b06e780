import { Args } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';

export default class HashPassword extends MockCommand {
  static summary = 'Print a password hash for admin.auth.users[].password_hash in mock.yaml (scrypt).';

  static examples = ['<%= config.bin %> <%= command.id %> "correct horse battery staple"'];

  static args = {
    password: Args.string({ description: 'The password to hash.', required: true }),
  };

  async run(): Promise<void> {
    const { args } = await this.parse(HashPassword);
    const { hashPassword } = await import('../../../runtime/index.js');
    this.log(await hashPassword(args.password));
  }
}
