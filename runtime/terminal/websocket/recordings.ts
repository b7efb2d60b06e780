import path from 'node:path';
import type { Logger } from 'pino';
import { SESSION_PREFIX, WEBSOCKET_FIXTURES, scriptText, sessionFiles, sessionFolder } from '../../../common/websocket/index.js';
import { AtomicWriter, RecordingFile, type WaitingBytes } from '../../files/index.js';
import { loadScript } from './routes.js';
import type { CompiledScript } from './script-player.js';
import type { WsTape } from './session.js';
import { andThen, type Awaitable } from '../../store/index.js';

/** These sessions' keys in the fixture-sequences store. */
const SERVED = 'websocket ';

/**
 * Recorded WebSocket sessions under core.fixtures.dir: recording writes each session as a replay
 * script (`websocket/chat/room-1/session-0001.jsonl` for `/chat/room-1`) line by line as it goes,
 * put in place whole when it ends (RecordingFile), at most `maxBytes` each; replaying plays a
 * path's sessions in recorded order, one per connection, the last one again once all have played
 * (as HTTP fixture sequences repeat their last).
 */
export class WsRecordings {
  private readonly root: string;
  private readonly writer: AtomicWriter;
  private readonly scripts = new Map<string, CompiledScript>();
  /** Sessions being recorded: close() finishes them. */
  private readonly open = new Set<() => void>();
  /** Finishes in flight: close() waits for them. */
  private readonly saving = new Set<Promise<void>>();
  private closed = false;

  /**
   * `played`: how many connections a folder replayed before this one, counted in the
   * fixture-sequences store (FixtureStore.advance).
   */
  constructor(
    private readonly fixturesDir: string,
    private readonly maxBytes: number,
    private readonly logger: Logger,
    private readonly played: (key: string) => Awaitable<number>,
    /** The process's budget of recordings waiting to be written (core.fixtures.max_unsaved_mb). */
    private readonly waiting: WaitingBytes,
  ) {
    this.root = path.join(fixturesDir, WEBSOCKET_FIXTURES);
    this.writer = new AtomicWriter(fixturesDir);
  }

  /**
   * Starts recording a session of `requestPath`: each line is written as it happens; past maxBytes
   * the recording stops (one warning) and keeps the lines before, a valid script. A session
   * without lines leaves no file. Undefined once close() was called.
   */
  start(requestPath: string): WsTape | undefined {
    if (this.closed) return undefined;
    const file = new RecordingFile(this.writer, sessionFolder(this.fixturesDir, requestPath), SESSION_PREFIX, this.maxBytes, this.waiting);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      this.open.delete(end);
      const saved = file.finish().then(
        () => undefined,
        (e: unknown) => this.logger.warn({ err: e, path: requestPath }, `websocket: a recorded session of ${requestPath} could not be saved (${(e as Error).message})`),
      );
      this.saving.add(saved);
      void saved.finally(() => this.saving.delete(saved));
    };
    this.open.add(end);
    return {
      line: (line) => {
        // one warning when the budget stops it; a write failure is said when the session ends
        if (ended || file.full || file.behind || file.append(scriptText([line])) || !(file.full || file.behind)) return;
        const why = file.behind
          ? `core.fixtures.max_unsaved_mb (${this.waiting.maxBytes / (1024 * 1024)}): the recordings waiting to be written filled it, the disk is slower than the traffic`
          : `core.fixtures.max_recording_mb (${this.maxBytes / (1024 * 1024)})`;
        this.logger.warn({ path: requestPath }, `websocket: the recording of a session of ${requestPath} stopped at ${why}: its file keeps the ${file.bytes} bytes before`);
      },
      end,
    };
  }

  /**
   * Resolves once everything recorded is on disk: sessions still open are finished with the lines
   * they have (a valid script, cut there), every file is synced and in place. Later sessions are
   * not recorded. Never rejects (a file that cannot be written is logged).
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const end of [...this.open]) end();
    await Promise.all([...this.saving]);
  }

  /** Whether `requestPath` has recorded sessions to replay. */
  has(requestPath: string): boolean {
    return sessionFiles(sessionFolder(this.fixturesDir, requestPath)).length > 0;
  }

  /** The session to replay for the next connection to `requestPath`, or undefined when none was recorded. */
  take(requestPath: string): Awaitable<CompiledScript | undefined> {
    const folder = sessionFolder(this.fixturesDir, requestPath);
    const files = sessionFiles(folder);
    if (files.length === 0) return undefined;
    return andThen(this.played(SERVED + folder), (n) => this.script(files, folder, n));
  }

  /** The `n`th recorded session of the folder (the last once they are used up), compiled once. */
  private script(files: string[], folder: string, n: number): CompiledScript | undefined {
    const file = path.join(folder, files[Math.min(n, files.length - 1)]);
    let script = this.scripts.get(file);
    if (script === undefined) {
      try {
        script = { ...loadScript(file, 'core.fixtures.dir'), name: `fixture ${path.relative(this.root, file)}`, source: 'fixture' };
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
