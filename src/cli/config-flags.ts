import { Flags } from '@oclif/core';
import { defaultValue, type FlagSetting } from '../config/index.js';

// Flags for config keys have no oclif defaults: an absent flag must not mask env or file values.
// The defaults come from the schema and are only quoted in the help text.
const withDefault = (text: string, key: string): string => `${text} [default: ${defaultValue(key)}]`;

/** What to build, shared by `build` and `serve`. */
export const buildFlags = {
  spec: Flags.string({
    description: 'API description (OpenAPI 3.x or Swagger 2.0, JSON or YAML) as a file or URL; repeat for several. Replaces specs: of the config file.',
    helpValue: '<path|url>',
    multiple: true,
  }),
  config: Flags.string({
    char: 'c',
    description: 'Config file [default: mock.yaml, mock.yml, .mock.yaml or .mock.yml in this or a parent directory]',
    helpValue: '<path>',
  }),
  out: Flags.string({ description: withDefault('Folder holding the builds', 'build.out_dir'), helpValue: '<dir>' }),
  name: Flags.string({ description: "Build name, the folder under --out [default: the first spec's file name]" }),
};

/** How to serve. */
export const serveFlags = {
  'http-port': Flags.integer({ description: withDefault('HTTP port; 0 picks a free one', 'server.http_port'), helpValue: '<port>' }),
  host: Flags.string({ description: withDefault('Address to listen on', 'server.bind'), helpValue: '<address>' }),
  validation: Flags.option({
    description: withDefault('Request validation mode', 'validation.mode'),
    options: ['off', 'warn', 'enforce'] as const,
  })(),
  'validation-status': Flags.integer({
    description: withDefault('Status of requests rejected by validation (422 is the usual alternative)', 'validation.status_code'),
    helpValue: '<code>',
  }),
  'aggregate-errors': Flags.boolean({
    description: withDefault('Report all validation errors of a request together', 'validation.aggregate_errors'),
    allowNo: true,
  }),
  'validate-responses': Flags.boolean({
    description: withDefault('Log responses that do not match the description', 'validation.validate_responses'),
    allowNo: true,
  }),
  'response-template-expand': Flags.boolean({
    description: withDefault('Expand template tokens such as {{uuid}} in responses', 'response_template_expand'),
    allowNo: true,
  }),
  seed: Flags.integer({ description: 'Seed for generated data, for repeatable responses [default: random]', helpValue: '<int>' }),
};

/** The config key each flag sets; other flags (--config, --check, --print-config …) steer the command. */
const FLAG_KEYS: Readonly<Record<string, string>> = {
  spec: 'specs',
  out: 'build.out_dir',
  name: 'build.name',
  'http-port': 'server.http_port',
  host: 'server.bind',
  validation: 'validation.mode',
  'validation-status': 'validation.status_code',
  'aggregate-errors': 'validation.aggregate_errors',
  'validate-responses': 'validation.validate_responses',
  'response-template-expand': 'response_template_expand',
  seed: 'seed',
};

/** The config values among the parsed flags: only those the user passed. */
export function flagSettings(flags: Readonly<Record<string, unknown>>): FlagSetting[] {
  return Object.entries(FLAG_KEYS)
    .filter(([flag]) => flags[flag] !== undefined)
    .map(([flag, key]) => ({ flag, key, value: flags[flag] }));
}
