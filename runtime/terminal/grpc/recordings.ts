import { andThen, type Awaitable } from '../../store/index.js';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import protobuf from 'protobufjs';
import type { Logger } from 'pino';
import { jsonlFilesBelow, numberOfFile } from '../../../common/fixtures/numbered-files.js';
import {
  CALL_PREFIX,
  GRPC_FIXTURES,
  callFolder,
  parseRecording,
  recordingEndLine,
  recordingFrameLine,
  recordingHeadLine,
  recordingProblemLine,
  type GrpcEnd,
  type GrpcMode,
  type GrpcRecording,
  type GrpcRecordingHead,
} from '../../../common/grpc/recording.js';
import { GRPC } from '../../../common/grpc-status.js';
import type { FixtureStore } from '../../chain/fixtures/index.js';
import { watchFolder } from '../../chain/fixtures/index.js';
import { AtomicWriter, RecordingFile } from '../../files/index.js';
import type { BidiSession, GrpcFailure, MethodMock, Outgoing, Reply, StreamPlan } from './engine.js';
import { fromJson, toJson } from './json-mapping.js';

/** What a replayed call answers: the engine's kinds of answer, and the file they came from. */
export type Replayed<T> = T & { fixture: string };

/** A recorded call ready to play. */
interface Playable {
  file: string;
  /** Below core.fixtures.dir, `/`-separated: what the request log says. */
  shown: string;
  number: number;
  method: string;
  mode: GrpcMode;
  /** The recorded request messages as a key (stable proto3 JSON). */
  inKey: string;
  /** digestOf the method and inKey. */
  digest: string;
  /** Frames in order: `in` by key, `out` in the object form grpc-js sends. */
  steps: Array<{ dir: 'in'; key: string; ts: number } | { dir: 'out'; message: object; ts: number }>;
  end: { ts: number; code: number; message: string; trailers?: Record<string, string>; details?: Buffer };
  mtimeMs: number;
  size: number;
}

/** Recordings in recorded order, per method and request messages, and per bidirectional method; how many were served is the fixture-sequences store's (under SERVED and `key`). */
interface Sequence {
  readonly key: string;
  items: Playable[];
}

/** These recordings' keys in the fixture-sequences store. */
const SERVED = 'grpc ';

/** Where a recorded call's frames go as they happen (GrpcRecordings.start). */
export interface GrpcTape {
  frame(ts: number, dir: 'in' | 'out', message: object): void;
  /** The call ended with this status: the recording is put in place. */
  end(end: GrpcEnd): void;
  /** The call is not to be recorded after all (cancelled, refused, replayed): what was written is removed. */
  abandon(): void;
}

const OBJECT_OPTIONS: protobuf.IConversionOptions = { longs: String, enums: String, bytes: Buffer, defaults: true, oneofs: true };

/** Object keys sorted at every level: equal messages give equal text whatever their map order. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stable((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A message as a call hands it over (the object form) → its key: stable proto3 JSON. */
export const messageKey = (type: protobuf.Type, message: object): string => stable(toJson(type, message));

/** proto3 JSON as read from a file → the object form a call receives (through the wire format, so every spelling of a message is the same object). */
function objectOf(type: protobuf.Type, json: unknown, where: string): object {
  const plain = fromJson(type, json, where) as Record<string, unknown> | undefined;
  return type.toObject(type.decode(type.encode(type.fromObject(plain ?? {})).finish()), OBJECT_OPTIONS);
}

const joinKeys = (keys: readonly string[]): string => keys.join('\n');

/** What max_sequence counts recordings by: the method and the request messages' keys, hashed (a call being recorded keeps no copy of them). */
const digestOf = (method: string, inKey: string): string => createHash('sha256').update(`${method}\n`).update(inKey).digest('hex');

/** Per-frame delays of outgoing messages from the ts of the line before each. */
function plan(steps: Playable['steps'], from: number, startTs: number): { messages: Outgoing[]; next: number; lastTs: number } {
  const messages: Outgoing[] = [];
  let i = from;
  let lastTs = startTs;
  for (; i < steps.length; i++) {
    const step = steps[i];
    if (step.dir === 'in') break;
    messages.push({ message: step.message, delayMs: Math.max(0, step.ts - lastTs) });
    lastTs = step.ts;
  }
  return { messages, next: i, lastTs };
}

const failureOf = (end: Playable['end']): GrpcFailure => ({ code: end.code, message: end.message, ...(end.details === undefined ? {} : { details: end.details }), ...(end.trailers === undefined ? {} : { trailers: end.trailers }) });

/**
 * Recorded gRPC calls under core.fixtures.dir (`grpc/<package.Service>/<Method>/call-0001.jsonl`,
 * common/grpc/recording.ts): recording writes each call as it goes and puts it in place whole
 * when it ends (RecordingFile), numbered after those in its folder; replay answers a call from the
 * recording whose request messages equal the call's (unary, server and client streaming;
 * bidirectional calls play their method's recordings in recorded order as scripts). Read at start, kept in step with the folder by its watcher (when
 * core.fixtures.watch) and read again on POST /__mock/fixtures/reload.
 */
export class GrpcRecordings {
  readonly root: string;
  private readonly writer: AtomicWriter;
  private readonly byFile = new Map<string, Playable>();
  private readonly groups = new Map<string, Sequence>();
  private readonly bidi = new Map<string, Sequence>();
  /** Recordings per method: a call of a method without any is not looked up further. */
  private readonly perMethod = new Map<string, number>();
  /** Recordings, and finished calls being saved, per digestOf: for max_sequence. */
  private readonly recorded = new Map<string, number>();
  private readonly unsaved = new Map<string, number>();
  private readonly capped = new Set<string>();
  /** Calls being recorded: close() abandons them. */
  private readonly open = new Set<GrpcTape>();
  /** Saves in flight: close() waits for them. */
  private readonly saving = new Set<Promise<void>>();
  private closed = false;
  private stopWatching: (() => void) | undefined;

  constructor(
    private readonly store: FixtureStore,
    private readonly methodOf: (method: string) => MethodMock | undefined,
    private readonly logger: Logger,
    watch: boolean,
  ) {
    this.root = path.join(store.dir, GRPC_FIXTURES);
    this.writer = new AtomicWriter(store.dir);
    this.reload();
    store.onReload(() => this.reload());
    if (watch) this.stopWatching = watchFolder(this.root, (name) => (name === null ? this.reload(false) : this.refresh(path.join(this.root, name))), logger);
  }

  get size(): number {
    return this.byFile.size;
  }

  get recording(): boolean {
    return this.store.settings.record;
  }

  get replaying(): boolean {
    return this.store.settings.replay && this.byFile.size > 0;
  }

  /** Reads every recording again; sequences start over unless `restart` is false (the watcher lost track). */
  reload(restart = true): void {
    if (restart) this.store.restartSequences(SERVED);
    this.byFile.clear();
    this.groups.clear();
    this.bidi.clear();
    this.perMethod.clear();
    this.recorded.clear();
    let files: string[];
    try {
      files = jsonlFilesBelow(this.root);
    } catch (e) {
      this.logger.warn(`fixtures: cannot read ${this.root} (${(e as NodeJS.ErrnoException).code ?? String(e)}); no gRPC call is replayed`);
      return;
    }
    for (const file of files) this.load(file);
  }

  /**
   * Stops watching the folder and recording, and resolves once every call that ended is on disk
   * (synced, in place). Calls still in flight are not recorded (their files are removed), as a
   * cancelled call is not: a call without its status is no recording. Never rejects (a file
   * that cannot be written is logged).
   */
  async close(): Promise<void> {
    this.stopWatching?.();
    this.stopWatching = undefined;
    this.closed = true;
    for (const tape of [...this.open]) tape.abandon();
    await Promise.all([...this.saving]);
  }

  // ---- replay

  /** A unary call's recorded answer, or undefined when none of its recordings has this request (then the engine answers). */
  unary(mock: MethodMock, request: object): Awaitable<Replayed<Reply> | undefined> {
    return andThen(this.take(mock, () => [messageKey(mock.requestType, request)]), (found) => (found === undefined ? undefined : this.reply(found, 'in')));
  }

  /** A recorded call's one reply (unary, client stream), timed from its first (`in`) or last request message. */
  private reply(found: Playable, from: 'in' | 'lastIn'): Replayed<Reply> {
    const { steps, end } = found;
    const inTs = from === 'in' ? (steps.find((s) => s.dir === 'in')?.ts ?? 0) : steps.reduce((ts, s) => (s.dir === 'in' ? s.ts : ts), 0);
    const out = steps.find((s) => s.dir === 'out');
    if (end.code !== GRPC.OK || out === undefined || out.dir !== 'out') return { failure: failureOf(end), delayMs: Math.max(0, end.ts - inTs), fixture: found.shown };
    return { message: out.message, delayMs: Math.max(0, out.ts - inTs), ...(end.trailers === undefined ? {} : { trailers: end.trailers }), fixture: found.shown };
  }

  /** A server stream's recorded messages at their recorded pace and its status, or undefined. */
  serverStream(mock: MethodMock, request: object): Awaitable<Replayed<StreamPlan> | undefined> {
    return andThen(this.take(mock, () => [messageKey(mock.requestType, request)]), (found) => {
      if (found === undefined) return undefined;
      const inAt = found.steps.findIndex((s) => s.dir === 'in');
      const { messages, lastTs } = plan(found.steps, inAt + 1, found.steps[inAt]?.ts ?? 0);
      return { messages, ...this.ending(found, lastTs), fixture: found.shown };
    });
  }

  /** A client stream's recorded answer for these messages (after the half-close), or undefined. */
  clientStream(mock: MethodMock, requests: readonly object[]): Awaitable<Replayed<Reply> | undefined> {
    return andThen(this.take(mock, () => requests.map((r) => messageKey(mock.requestType, r))), (found) => (found === undefined ? undefined : this.reply(found, 'lastIn')));
  }

  /**
   * A bidirectional call plays its method's next recording as a script: the messages recorded
   * before the first client message at once (at their pace), then for each recorded client
   * message, once one equal to it arrives, the messages that followed it; client messages that
   * equal no awaited one are passed over. Undefined when the method has no recording.
   */
  bidiSession(mock: MethodMock): Awaitable<Replayed<{ session: BidiSession }> | undefined> {
    const sequence = this.bidi.get(mock.path);
    return sequence === undefined ? undefined : andThen(this.pick(sequence), (found) => (found === undefined ? undefined : this.script(mock, found)));
  }

  private script(mock: MethodMock, found: Playable): Replayed<{ session: BidiSession }> {
    const { steps } = found;
    let at = 0;
    const session: BidiSession = {
      start: () => {
        const { messages, next, lastTs } = plan(steps, 0, 0);
        at = next;
        // a recorded call that failed before any client message fails now
        return { messages, ...(at >= steps.length ? this.ending(found, lastTs) : {}) };
      },
      received: (message) => {
        const step = steps[at];
        if (step === undefined || step.dir !== 'in' || step.key !== messageKey(mock.requestType, message)) return { messages: [] };
        const { messages, next, lastTs } = plan(steps, at + 1, step.ts);
        at = next;
        // a recorded call that failed after these messages fails now, without waiting for the half-close
        return { messages, ...(at >= steps.length ? this.ending(found, lastTs) : {}) };
      },
      end: () => {
        const lastTs = at > 0 ? steps[at - 1].ts : 0;
        return { messages: [], ...this.ending(found, lastTs) };
      },
    };
    return { session, fixture: found.shown };
  }

  private ending(found: Playable, lastTs: number): Pick<StreamPlan, 'end' | 'endDelayMs'> {
    if (found.end.code === GRPC.OK) return {};
    return { end: failureOf(found.end), endDelayMs: Math.max(0, found.end.ts - lastTs) };
  }

  /** The next recording of these request messages; their keys are made only for a method with recordings. */
  private take(mock: MethodMock, keys: () => readonly string[]): Awaitable<Playable | undefined> {
    if (!this.perMethod.has(mock.path)) return undefined;
    const group = this.groups.get(`${mock.path}\n${joinKeys(keys())}`);
    return group === undefined ? undefined : this.pick(group);
  }

  /** The next of a sequence, as core.fixtures.sequence_end says once it is used up (as HTTP fixtures). */
  private pick(sequence: Sequence): Awaitable<Playable | undefined> {
    return andThen(this.store.position(SERVED + sequence.key, sequence.items.length), (at) => (at === undefined ? undefined : sequence.items[at]));
  }

  // ---- recording

  /**
   * Starts recording a call: its head now, each message as it goes (in proto3 JSON), its status
   * when it ends, at most core.fixtures.max_recording_mb a call. Past the budget, messages are
   * left out (one warning): a server or bidirectional stream keeps the messages before and its
   * status (a valid recording, cut there); a unary or client-streaming call, whose answer would
   * be missing, is not recorded. Undefined once close() was called.
   */
  start(mock: MethodMock, head: GrpcRecordingHead): GrpcTape | undefined {
    if (this.closed) return undefined;
    const { maxRecordingBytes } = this.store.settings;
    const file = new RecordingFile(this.writer, callFolder(this.store.dir, head.method), CALL_PREFIX, maxRecordingBytes, this.store.waiting);
    file.append(recordingHeadLine(head), true);
    const digest = createHash('sha256').update(`${head.method}\n`);
    let ins = 0;
    let cut = false;
    const budget = (): string =>
      file.behind ? `core.fixtures.max_unsaved_mb (${this.store.waiting.maxBytes / (1024 * 1024)}): the recordings waiting to be written filled it, the disk is slower than the traffic` : `core.fixtures.max_recording_mb (${maxRecordingBytes / (1024 * 1024)})`;
    const tape: GrpcTape = {
      frame: (ts, dir, message) => {
        if (cut || !this.open.has(tape)) return;
        const json = toJson(dir === 'in' ? mock.requestType : mock.responseType, message);
        if (!file.append(recordingFrameLine({ ts, dir, message: json }))) {
          cut = true;
          if (file.full || file.behind) this.logger.warn({ method: head.method }, `grpc: the recording of a call of ${head.method} stopped at ${budget()}`);
          return;
        }
        if (dir === 'in') digest.update(`${ins++ === 0 ? '' : '\n'}${stable(json)}`);
      },
      end: (end) => {
        if (!this.open.delete(tape)) return;
        const whole = !cut || head.mode === 'bidi_streaming' || (head.mode === 'server_streaming' && ins === 1);
        if (!whole) this.logger.warn({ method: head.method }, `grpc: a ${head.mode} call of ${head.method} is not recorded: its messages pass ${budget()}, and its answer would be missing`);
        const key = digest.digest('hex');
        if (!whole || !file.append(recordingEndLine(end), true) || !this.admit(head.method, key)) {
          this.track(file.abandon());
          return;
        }
        this.track(
          file
            .finish()
            .then(
              (saved) => saved !== undefined && this.load(saved),
              (e: unknown) => this.logger.warn({ err: e, method: head.method }, `grpc: a recorded call of ${head.method} could not be saved (${(e as Error).message})`),
            )
            .finally(() => this.count(this.unsaved, key, -1)),
        );
      },
      abandon: () => {
        if (this.open.delete(tape)) this.track(file.abandon());
      },
    };
    this.open.add(tape);
    return tape;
  }

  /** Whether max_sequence still lets a call with these request messages be saved; counted as unsaved until it is. */
  private admit(method: string, key: string): boolean {
    const max = this.store.settings.maxSequence;
    if (max > 0 && (this.recorded.get(key) ?? 0) + (this.unsaved.get(key) ?? 0) >= max) {
      if (!this.capped.has(key)) {
        this.capped.add(key);
        this.logger.info(`recording: ${method} has ${max} recorded calls with these request messages (core.fixtures.max_sequence); its repeats are not recorded`);
      }
      return false;
    }
    this.count(this.unsaved, key, 1);
    return true;
  }

  private count(counts: Map<string, number>, key: string, by: number): void {
    const n = (counts.get(key) ?? 0) + by;
    if (n > 0) counts.set(key, n);
    else counts.delete(key);
  }

  private track(saving: Promise<unknown>): void {
    const settled = saving.then(
      () => undefined,
      () => undefined,
    );
    this.saving.add(settled);
    void settled.finally(() => this.saving.delete(settled));
  }

  // ---- files

  /** A file the watcher saw change: read again, or forgotten when gone. */
  private refresh(file: string): void {
    if (!file.endsWith('.jsonl') || path.relative(this.root, file).split(path.sep).some((part) => part.startsWith('.'))) return;
    const known = this.byFile.get(file);
    let stat;
    try {
      stat = statSync(file);
    } catch {
      if (known !== undefined) this.remove(file);
      return;
    }
    if (known !== undefined && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return;
    this.load(file);
  }

  /** Reads one recording into the index (replacing what the file held before); a problem is logged and the file skipped. */
  private load(file: string): void {
    this.remove(file);
    const shown = path.relative(this.store.dir, file).split(path.sep).join('/');
    let text: string;
    let stat;
    try {
      text = readFileSync(file, 'utf8');
      stat = statSync(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn(`fixture skipped: ${shown}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      return;
    }
    const parsed = parseRecording(text);
    if (parsed.recording === undefined) {
      for (const problem of parsed.problems) this.logger.warn(`fixture skipped: ${recordingProblemLine(shown, problem)}`);
      return;
    }
    const compiled = this.compile(parsed.recording, file, shown, stat);
    if (typeof compiled === 'string') {
      this.logger.warn(`fixture skipped: ${shown}:${compiled}`);
      return;
    }
    this.byFile.set(file, compiled);
    this.perMethod.set(compiled.method, (this.perMethod.get(compiled.method) ?? 0) + 1);
    const key = `${compiled.method}\n${compiled.inKey}`;
    const group = this.groups.get(key) ?? { key, items: [] };
    this.groups.set(key, group);
    this.count(this.recorded, compiled.digest, 1);
    group.items.push(compiled);
    group.items.sort(byOrder);
    if (compiled.mode === 'bidi_streaming') {
      const sequence = this.bidi.get(compiled.method) ?? { key: `bidi ${compiled.method}`, items: [] };
      this.bidi.set(compiled.method, sequence);
      sequence.items.push(compiled);
      sequence.items.sort(byOrder);
    }
  }

  private remove(file: string): void {
    const known = this.byFile.get(file);
    if (known === undefined) return;
    this.byFile.delete(file);
    this.count(this.recorded, known.digest, -1);
    const left = (this.perMethod.get(known.method) ?? 1) - 1;
    if (left > 0) this.perMethod.set(known.method, left);
    else this.perMethod.delete(known.method);
    const group = this.groups.get(`${known.method}\n${known.inKey}`);
    if (group !== undefined) group.items = group.items.filter((item) => item !== known);
    const sequence = this.bidi.get(known.method);
    if (sequence !== undefined) sequence.items = sequence.items.filter((item) => item !== known);
  }

  /** The recording against its method's types: a Playable, or `line: reason`. */
  private compile(recording: GrpcRecording, file: string, shown: string, stat: { mtimeMs: number; size: number }): Playable | string {
    const { head, frames, end } = recording;
    const mock = this.methodOf(head.method);
    if (mock === undefined) return `1: method: ${head.method} is not a method of the served protos`;
    const mode: GrpcMode = mock.clientStreaming ? (mock.serverStreaming ? 'bidi_streaming' : 'client_streaming') : mock.serverStreaming ? 'server_streaming' : 'unary';
    if (head.mode !== mode) return `1: mode: ${head.method} is ${mode}, not ${head.mode}`;
    const steps: Playable['steps'] = [];
    const keys: string[] = [];
    for (const frame of frames) {
      const type = frame.dir === 'in' ? mock.requestType : mock.responseType;
      let object: object;
      try {
        object = objectOf(type, frame.message, 'message');
      } catch (e) {
        return `${frame.line}: ${(e as Error).message}`;
      }
      if (frame.dir === 'in') {
        const key = messageKey(type, object);
        keys.push(key);
        steps.push({ dir: 'in', key, ts: frame.ts });
      } else steps.push({ dir: 'out', message: object, ts: frame.ts });
    }
    return {
      file,
      shown,
      number: numberOfFile(CALL_PREFIX, path.basename(file)),
      method: head.method,
      mode,
      inKey: joinKeys(keys),
      digest: digestOf(head.method, joinKeys(keys)),
      steps,
      end: { ts: end.ts, code: end.code, message: end.message, ...(end.trailers === undefined ? {} : { trailers: end.trailers }), ...(end.details === undefined ? {} : { details: Buffer.from(end.details, 'base64') }) },
      mtimeMs: stat.mtimeMs,
      size: stat.size,
    };
  }
}

/** Recorded order: by folder, then number, then name. */
const byOrder = (a: Playable, b: Playable): number => path.dirname(a.file).localeCompare(path.dirname(b.file)) || a.number - b.number || a.file.localeCompare(b.file);
