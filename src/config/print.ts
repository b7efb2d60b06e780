import { Document, isMap, isSeq, type Node, type Scalar, type YAMLMap } from 'yaml';
import { formatKeyPath } from './key-path.js';
import type { ResolvedConfig } from './load.js';
import { deprecatedInUse, orderBySchema } from './schema-notes.js';
import { redactSecrets } from './secrets.js';

const FOUND_BY = { flag: '--config', env: 'MOCK_CONFIG_FILE', search: 'search from the current directory' } as const;

/**
 * YAML of the effective configuration with `# from <source>` after every leaf (`mock serve
 * --print-config`), then a comment per deprecated key in use.
 * Credentials (the keys schema.json marks x-secret) show as `<redacted>`, URLs' passwords as [redacted].
 */
export function formatConfig(resolved: ResolvedConfig): string {
  const doc = new Document(redactSecrets(orderBySchema(resolved.config), '<redacted>'));
  annotate(doc.contents as YAMLMap, [], resolved.sources);
  const header = resolved.file
    ? `# config file: ${resolved.file.file} (found by ${FOUND_BY[resolved.file.via]})`
    : '# no config file found';
  const notes = deprecatedInUse(resolved.sources).map(({ key, replacement }) => `# ${key} is deprecated: use ${replacement}`);
  return `${header}\n${doc.toString()}${notes.map((note) => `${note}\n`).join('')}`;
}

/** Leaves are the same as in `forEachLeaf`: anything but a non-empty mapping. */
function annotate(map: YAMLMap, prefix: string[], sources: ResolvedConfig['sources']): void {
  for (const pair of map.items) {
    const key = pair.key as Scalar;
    const value = pair.value as Node;
    const path = [...prefix, String(key.value)];
    if (isMap(value) && value.items.length > 0) {
      annotate(value, path, sources);
      continue;
    }
    const comment = ` from ${sources[formatKeyPath(path)]}`;
    if (isSeq(value) && value.items.length > 0) {
      key.comment = comment; // a block sequence starts on the next line: keep the comment on the key's
    } else {
      if (isMap(value) || isSeq(value)) value.flow = true; // `{}` / `[]` inline, comment after it
      value.comment = comment;
    }
  }
}
