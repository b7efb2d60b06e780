import type { ScriptLineJson } from './script-line.js';

/** Lines as a replay script file: one JSON object per line, fields in the spec's order. */
export function scriptText(lines: readonly ScriptLineJson[]): string {
  return lines.map((line) => `${JSON.stringify(ordered(line))}\n`).join('');
}

function ordered({ ts, dir, text, waitFor, encoding, capture, close }: ScriptLineJson): ScriptLineJson {
  return { ts, dir, ...(text === undefined ? {} : { text }), ...(waitFor === undefined ? {} : { waitFor }), ...(encoding === undefined ? {} : { encoding }), ...(capture === undefined ? {} : { capture }), ...(close === undefined ? {} : { close }) };
}
