import { Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { commonDataFlags } from '../../data/flags.js';

export default class DataTemplate extends MockCommand {
  static summary = "Render a response template --count times, with the same tokens as the server's response templates.";

  static description = `Tokens: {{uuid}}, {{now}}, {{now+1h}}, {{now-30m}}, {{randInt 1 100}}, {{randFloat 0 1}}, {{rand.float}}, {{faker.name|email|address|phone|company}}, {{faker.<module>.<method>}}, {{#if …}}…{{else}}…{{/if}}. There is no request, so {{request.*}} tokens render empty.

A template that is JSON (inline, a .json file, or a .yaml/.yml file, read as data) is rendered like a JSON example on the server (tokens go inside JSON strings) and each rendering is one JSON value; any other text renders to one string per value.

json/yaml: --count 1 prints one value, more print an array of values.`;

  static examples = [
    `<%= config.bin %> <%= command.id %> --template '{"id":"{{uuid}}","name":"{{faker.name}}"}' --count 5`,
    '<%= config.bin %> <%= command.id %> --template @user.json --count 100 --format csv --output users.csv',
    `<%= config.bin %> <%= command.id %> --template 'Hello {{faker.name}}, it is {{now}}' --seed 7`,
  ];

  static flags = {
    template: Flags.string({ char: 't', description: 'Template text, or @<file> to read it from a file (.json, .yaml/.yml or text)', helpValue: '<text|@file>', required: true }),
    ...commonDataFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DataTemplate);
    const { resolveDataOptions } = await import('../../data/options.js');
    const options = resolveDataOptions(flags);
    const { templateSource } = await import('../../data/template.js');
    const { writeValues } = await import('../../data/values.js');
    await writeValues(templateSource(flags.template, process.cwd()), options);
  }
}
