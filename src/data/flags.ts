import { Flags } from '@oclif/core';
import { SEEDED_NOW } from '../../common/instant.js';

/** The output formats of `mock data`. */
export const DATA_FORMATS = ['json', 'yaml', 'csv'] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

/**
 * Flags every `mock data` command has. Kept free of compiler imports: `--help` loads only this.
 * No oclif default for --format: an absent flag lets the --output extension decide.
 */
export const commonDataFlags = {
  count: Flags.integer({
    description: 'How many values to make. With --format json or yaml, 1 prints a single value and more print an array of values.',
    default: 1,
    min: 1,
    helpValue: '<n>',
  }),
  format: Flags.option({
    description:
      'Output format [default: from the --output extension (.json, .yaml/.yml, .csv), else json]. csv: one row per value, nested object fields as dotted columns (owner.email), arrays as JSON text, null as an empty cell; the header is the union of the keys in first-seen order.',
    options: DATA_FORMATS,
  })(),
  output: Flags.string({
    char: 'o',
    description: 'File to write (replaced atomically; missing folders are created; one line on stderr says what was written) [default: stdout]',
    helpValue: '<file>',
  }),
  json: Flags.boolean({
    description: 'With --output: print what was written as JSON on stdout ({"file", "count", "format", "bytes"}) instead of the line on stderr.',
  }),
  seed: Flags.integer({
    description: `Seed for repeatable output (env MOCK_SEED) [default: random]. A seed also pins the clock to ${SEEDED_NOW} unless --now is given.`,
    helpValue: '<int>',
  }),
  now: Flags.string({
    description: 'Pin the clock (date-time and date values, {{now}} tokens) to this ISO 8601 instant [default: the current time, or the seeded instant with --seed]',
    helpValue: '<timestamp>',
  }),
};
