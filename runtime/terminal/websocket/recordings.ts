import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { WEBSOCKET_FIXTURES, highestSession, scriptText, sessionFileName, sessionFiles, sessionFolder, type ScriptLineJson } from '../../../common/websocket/index.js';
import { AtomicWriter } from '../../files/index.js';
import { loadScript } from './routes.js';
import type { CompiledScript } from './script-player.js';

/**
 * Recorded WebSocket sessions under core.fixtures.dir: recording writes each session as a replay
 * script (`websocket/chat/room-1/session-0001.jsonl` for `/chat/room-1`), atomically; replaying
 * plays a path's sessions in recorded order, one per connection, the last one again once all have
 * played (as HTTP fixture sequences repeat their last).
 */
export class WsRecordings {
  private readonly root: string;
  private readonly writer: AtomicWriter;
  /** Next number per folder, for saves still in flight when the next session ends. */
  private readonly next = new Map<string, number>();
  /** Connections replayed per folder. */
  private readonly played = new Map<string, number>();
  private readonly scripts = new Map<string, CompiledScript>();

  constructor(
    private readonly fixturesDir: string,
    private readonly logger: Logger,
  ) {
    this.root = path.join(fixturesDir, WEBSOCKET_FIXTURES);
    this.writer = new AtomicWriter(fixturesDir);
  }

  /** Saves a session; returns the file, or undefined when it could not be written (logged). */
  async save(requestPath: string, lines: readonly ScriptLineJson[]): Promise<string | undefined> {
    const folder = sessionFolder(this.fixturesDir, requestPath);
    try {
      mkdirSync(folder, { recursive: true });
      // the folder is read again: mock fixtures import may have added sessions meanwhile
      const n = Math.max(this.next.get(folder) ?? 1, highestSession(folder) + 1);
      this.next.set(folder, n + 1);
      const file = path.join(folder, sessionFileName(n));
      await this.writer.write(file, scriptText(lines));
      return file;
    } catch (e) {
      this.logger.warn({ err: e, path: requestPath }, `websocket: a recorded session of ${requestPath} could not be saved (${(e as Error).message})`);
      return undefined;
    }
  }

  /** Whether `requestPath` has recorded sessions to replay. */
  has(requestPath: string): boolean {
    return sessionFiles(sessionFolder(this.fixturesDir, requestPath)).length > 0;
  }

  /** The session to replay for the next connection to `requestPath`, or undefined when none was recorded. */
  take(requestPath: string): CompiledScript | undefined {
    const folder = sessionFolder(this.fixturesDir, requestPath);
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
