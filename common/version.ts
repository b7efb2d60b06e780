import { readFileSync } from 'node:fs';

/** The tool's version, recorded in manifest.json so an upgrade marks builds stale. */
export const TOOL_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
