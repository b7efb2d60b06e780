import path from 'node:path';
import { Args, Flags } from '@oclif/core';
import { MockCommand } from '../cli/mock-command.js';
import { BLUEPRINTS, BLUEPRINT_NAMES, DEFAULT_BLUEPRINT, planProject, serveCommand, shellWord, writeProject, type BlueprintName } from '../init/index.js';

export default class Init extends MockCommand {
  static summary = 'Create a mock project from a blueprint: an API description, a mock.yaml, a fixtures folder and a README.';

  static description = [
    'The project holds api.yaml (OpenAPI 3.0), mock.yaml (validation, custom routes, a state machine), fixtures/ (one example fixture) and a README; `mock serve` runs it at once and `mock config validate` passes.',
    '',
    'Blueprints:',
    ...BLUEPRINT_NAMES.map((name) => `  ${name.padEnd(13)}${BLUEPRINTS[name]}`),
    '',
    '--no-examples leaves out the example fixture (fixtures/ keeps a .gitkeep) and the examples of the description\'s responses, which are then generated from the schemas.',
    'A target holding files (other than .git) is refused unless --force, which overwrites only the files the blueprint writes and deletes nothing.',
  ].join('\n');

  static examples = [
    '<%= config.bin %> <%= command.id %> my-api',
    '<%= config.bin %> <%= command.id %> shop --blueprint ecommerce',
    '<%= config.bin %> <%= command.id %> . --blueprint banking-lite --no-examples',
    '<%= config.bin %> <%= command.id %> my-api --force',
  ];

  static args = {
    name: Args.string({ description: 'Directory to create the project in (`.` for the current directory); its name becomes the project name.', required: true }),
  };

  static flags = {
    blueprint: Flags.string({
      description: 'Which API to scaffold.',
      options: BLUEPRINT_NAMES,
      default: DEFAULT_BLUEPRINT,
      helpValue: '<name>',
    }),
    examples: Flags.boolean({
      description: 'Include the example fixture and the response examples of the description (--no-examples leaves them out).',
      allowNo: true,
      default: true,
    }),
    force: Flags.boolean({ description: 'Write into a non-empty directory, overwriting only the files of the project (nothing is deleted).' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Init);
    const target = path.resolve(args.name);
    const shown = display(target);
    const blueprint = flags.blueprint as BlueprintName;
    const files = planProject({ blueprint, projectName: path.basename(target), examples: flags.examples });
    const written = writeProject(target, files, { force: flags.force }, shown);

    this.log(`mock: created ${shown === '.' ? 'a project in the current directory' : shown} from the ${blueprint} blueprint${flags.examples ? '' : ' (no examples)'}`);
    for (const { file, overwritten } of written) this.log(`  ${overwritten ? 'overwrote' : 'created  '} ${display(file)}`);
    this.log('');
    this.log(`Next: ${shown === '.' ? '' : `cd ${shellWord(shown)} && `}${serveCommand(process.argv[1], process.env, target)}`);
  }
}

/** How a path is shown: relative to cwd when it lies below it (`.` for cwd itself), absolute otherwise. */
function display(file: string): string {
  const relative = path.relative(process.cwd(), file);
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
