import { readFileSync } from 'node:fs';
import { packageFile } from './package-root.js';

/** The tool's version, recorded in manifest.json so an upgrade marks builds stale. */
export const TOOL_VERSION: string = (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
