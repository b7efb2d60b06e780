import { readFileSync } from 'node:fs';
import { LineCounter, isMap, isScalar, parseDocument, type Scalar, type YAMLError } from 'yaml';
import { MockError } from '../../common/errors.js';

/** What to do about the YAML errors people make most; anything else gets FALLBACK_FIX. */
const FIXES: Partial<Record<YAMLError['code'], string>> = {
  BAD_INDENT: 'align keys of the same mapping at the same column',
  BLOCK_AS_IMPLICIT_KEY: 'put a nested mapping on its own, further indented lines',
  MULTILINE_IMPLICIT_KEY: 'keep each key on one line',
  TAB_AS_INDENT: 'indent with spaces, not tabs',
  DUPLICATE_KEY: 'remove or rename the repeated key',
  MISSING_CHAR: 'add the missing closing character',
  BAD_SCALAR_START: 'quote the value',
  UNEXPECTED_TOKEN: 'quote the value or fix the indentation',
};
const FALLBACK_FIX = 'fix the YAML syntax at that position';

/** Parses a config file; an empty file is an empty configuration. `shown` names the file in errors. */
export function readConfigFile(file: string, shown: string): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter, prettyErrors: false });
  const [error] = doc.errors;
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    const fix = FIXES[error.code] ?? FALLBACK_FIX;
    throw new MockError('MOCK_ERR_CONFIG_PARSE', `${shown}:${line}:${col}: invalid YAML: ${error.message}; ${fix}`);
  }
  return doc.toJS() ?? {};
}

/** Finds the line of a key in a config file (`['chaos', 'failure_rate']` → 4), for reports. */
export function keyLocator(file: string): (path: readonly string[]) => number | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter });
  return (path) => {
    let node: unknown = doc.contents;
    let line: number | undefined;
    for (const segment of path) {
      if (!isMap(node)) return undefined;
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
      if (!pair) return undefined;
      const start = (pair.key as Scalar).range?.[0];
      if (start !== undefined) line = lineCounter.linePos(start).line;
      node = pair.value;
    }
    return line;
  };
}
