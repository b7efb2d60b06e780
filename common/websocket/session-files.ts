import { linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { highestNumber, jsonlFilesBelow, numberedFileName, numberedFiles } from '../fixtures/numbered-files.js';

/** `<core.fixtures.dir>/websocket/`: one folder per request path, one replay script per session. */
export const WEBSOCKET_FIXTURES = 'websocket';
/** Session files are `session-0001.jsonl`, … */
export const SESSION_PREFIX = 'session';

/**
 * The folder of a request path's sessions (`websocket/chat/room-1` for `/chat/room-1`), the same
 * for recording, replay and HAR import. Segments that could leave the folder or are not portable
 * names are percent-encoded.
 */
export function sessionFolder(fixturesDir: string, requestPath: string): string {
  const segments = requestPath.split('/').filter((s) => s !== '');
  return path.join(fixturesDir, WEBSOCKET_FIXTURES, ...segments.map(safeSegment));
}

/** `session-0001.jsonl` for 1: sessions are numbered from 1 in the order they were recorded. */
export const sessionFileName = (n: number): string => numberedFileName(SESSION_PREFIX, n);

/** The session files of a folder in number order; none when it is missing. */
export function sessionFiles(folder: string): string[] {
  return numberedFiles(folder, SESSION_PREFIX);
}

/** The highest session number in a folder, 0 when it has none. */
export function highestSession(folder: string): number {
  return highestNumber(folder, SESSION_PREFIX);
}

/**
 * Saves a new session of `requestPath` after those already there; the whole file appears at once
 * (a temporary file linked into place) and a link never replaces a file, so a server recording
 * the same path meanwhile loses nothing. Returns the file.
 */
export function addSession(fixturesDir: string, requestPath: string, text: string): string {
  const folder = sessionFolder(fixturesDir, requestPath);
  mkdirSync(folder, { recursive: true });
  const temporary = path.join(folder, `.session-${process.pid}-${Date.now()}.tmp`);
  try {
    writeFileSync(temporary, text, { flush: true });
    for (let n = highestSession(folder) + 1; ; n++) {
      const file = path.join(folder, sessionFileName(n));
      try {
        linkSync(temporary, file);
        return file;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Replay scripts (`*.jsonl`) at any depth below a folder, sorted; not dot-files nor files in dot-folders (saves in flight). */
export const scriptFilesBelow = jsonlFilesBelow;

function safeSegment(segment: string): string {
  const decoded = safeDecode(segment);
  if (decoded === '.' || decoded === '..') return encodeURIComponent(decoded).replace(/\./g, '%2E');
  return decoded.replace(/[^A-Za-z0-9._~@+=,-]/g, (c) => encodeURIComponent(c).replace(/[!'()*]/g, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
