import path from 'node:path';
import { Flags } from '@oclif/core';
import { MockError } from '../../common/errors.js';
import { isUrl } from '../config/index.js';

/**
 * --allow-ref, for every command that reads descriptions. External $refs stay in the project
 * unless allowed here, and only here: mock.yaml and the descriptions are what a cloned repository
 * or a save through the admin API can plant, so neither can widen where $refs read.
 */
export const allowRefFlag = {
  'allow-ref': Flags.string({
    description:
      "Let the descriptions' external $refs read this folder, or http(s) URLs under this prefix, besides the project (the description's folder and mock.yaml's); repeat for several",
    helpValue: '<dir|url>',
    multiple: true,
  }),
};

/** --allow-ref values as absolute folders (relative ones from the current directory) and http(s) URL prefixes. */
export function allowedRefs(values: readonly string[] | undefined, cwd = process.cwd()): string[] {
  return (values ?? []).map((value) => {
    if (isUrl(value)) return value;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) throw new MockError('MOCK_ERR_FLAG_INVALID', `--allow-ref ${value}: expected a folder or an http(s) URL prefix`);
    return path.resolve(cwd, value);
  });
}
