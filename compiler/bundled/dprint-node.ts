import { readFileSync } from 'node:fs';
import { createFromBuffer, type Formatter } from '@dprint/formatter';
import { getPath } from '@dprint/typescript';

// Stands in for dprint-node in the bundle of ts-proto (scripts/bundle-libraries.js): ts-poet formats
// the typed message code with dprint-node, 24 MB of native binaries (one per platform, all
// installed). This is the same dprint TypeScript plugin (0.87.1, the version dprint-node 1.0.8
// embeds: package.json pins it, so the code stays byte-identical) built to WebAssembly, 5 MB, one
// build for every platform.

let formatter: Formatter | undefined;
let configured: string | undefined;

/** dprint-node's `format`: dprint-node resolves its options over `deno: true`, so this does too. */
export function format(filePath: string, fileText: string, options: Record<string, unknown> = {}): string {
  // compiled on the first call (~0.1 s), by the builds that write typed message code only
  formatter ??= createFromBuffer(readFileSync(getPath()));
  const config = JSON.stringify(options);
  if (config !== configured) {
    formatter.setConfig({}, { deno: true, ...options });
    configured = config;
  }
  return formatter.formatText({ filePath, fileText });
}

// ts-poet reads dprint-node's CommonJS exports through a default import
export default { format };
