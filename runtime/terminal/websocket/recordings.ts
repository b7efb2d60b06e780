import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { scriptText, type ScriptLineJson } from '../../../common/websocket/index.js';
import { AtomicWriter } from '../../files/index.js';
import { loadScript } from './routes.js';
import type { CompiledScript } from './script-player.js';

/** `<core.fixtures.dir>/websocket/`: one folder per path, one replay script per recorded session. */
export const WEBSOCKET_FIXTURES = 'websocket';
const SESSION_FILE = /^session-(\d{4,})\.jsonl$/;

/**
 * Recorded WebSocket sessions under core.fixtures.dir: recording writes each session as a replay
 * script (`websocket/chat/room-1/session-0001.jsonl` for `/chat/room-1`), atomically; replaying
 * plays a path's sessions in recorded order, one per connection, the last one again once all have
 * played (as HTTP fixture sequences repeat their last).
 */
export class WsRecordings {
  private readonly root: string;
  private readonly writer: AtomicWriter;
  /** Next number per folder; read from the folder on first use. */
  private readonly next = new Map<string, number>();
  /** Connections replayed per folder. */
  private readonly played = new Map<string, number>();
  private readonly scripts = new Map<string, CompiledScript>();

  constructor(
    fixturesDir: string,
    private readonly logger: Logger,
  ) {
    this.root = path.join(fixturesDir, WEBSOCKET_FIXTURES);
    this.writer = new AtomicWriter(fixturesDir);
  }

  /** The folder of a request path; segments that could leave the folder or are not portable names are percent-encoded. */
  folderOf(requestPath: string): string {
    const segments = requestPath.split('/').filter((s) => s !== '');
    return path.join(this.root, ...segments.map(safeSegment));
  }

  /** Saves a session; returns the file, or undefined when it could not be written (logged). */
  async save(requestPath: string, lines: readonly ScriptLineJson[]): Promise<string | undefined> {
    const folder = this.folderOf(requestPath);
    try {
      mkdirSync(folder, { recursive: true });
      const n = this.next.get(folder) ?? highest(folder) + 1;
      this.next.set(folder, n + 1);
      const file = path.join(folder, `session-${String(n).padStart(4, '0')}.jsonl`);
      await this.writer.write(file, scriptText(lines));
      return file;
    } catch (e) {
      this.logger.warn({ err: e, path: requestPath }, `websocket: a recorded session of ${requestPath} could not be saved (${(e as Error).message})`);
      return undefined;
    }
  }

  /** The session to replay for the next connection to `requestPath`, or undefined when none was recorded. */
  take(requestPath: string): CompiledScript | undefined {
    const folder = this.folderOf(requestPath);
    const files = sessionFiles(folder);
    if (files.length === 0) return undefined;
    const n = this.played.get(folder) ?? 0;
    this.played.set(folder, n + 1);
    const file = path.join(folder, files[Math.min(n, files.length - 1)]);
    let script = this.scripts.get(file);
    if (script === undefined) {
      try {
        script = { ...loadScript(file, 'core.fixtures.dir'), name: `fixture ${path.relative(this.root, file)}` };
      } catch (e) {
        // a file edited by hand into something unplayable: said, and the path is served as if nothing was recorded
        this.logger.warn({ file }, (e as Error).message);
        return undefined;
      }
      this.scripts.set(file, script);
    }
    return script;
  }
}

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

function sessionFiles(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => SESSION_FILE.test(name))
      .sort((a, b) => numberOf(a) - numberOf(b));
  } catch {
    return [];
  }
}

const numberOf = (name: string): number => Number(SESSION_FILE.exec(name)?.[1] ?? 0);

function highest(folder: string): number {
  return sessionFiles(folder).reduce((max, name) => Math.max(max, numberOf(name)), 0);
}
