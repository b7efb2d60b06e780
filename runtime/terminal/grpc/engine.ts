import { randomInt } from 'node:crypto';
import protobuf from 'protobufjs';
import type { TemplateContext, TemplateRuntime } from '../../../common/contract/index.js';
import type { GrpcErrorRule, GrpcMethodRule } from '../../../common/grpc/method-rules.js';
import { GRPC } from '../../../common/grpc-status.js';
import { PatternError, compileJsonPathConditions, compileValueConditions, holdsForAny, jsonPathHolds, type JsonPathCondition, type ValueCondition } from '../../match/index.js';
import { createTemplateRuntime } from '../../template/index.js';
import { hashMessage, hashString, mix } from '../fake-data/index.js';
import { CoerceError, MessageCompiler, compileJson, type Compiled } from './coerce.js';
import { MessageGenerator } from './generate.js';
import { encodeStatus, statusCode, type PackedDetail } from './status.js';
import type { GrpcMockSettings } from './settings.js';

export type Metadata = Record<string, string | string[]>;

/** A status other than OK ending a call: code, message, the serialized google.rpc.Status when the rule gave details, trailing metadata. */
export interface GrpcFailure {
  code: number;
  message: string;
  /** Serialized google.rpc.Status for the `grpc-status-details-bin` trailer. */
  details?: Buffer;
  trailers?: Record<string, string>;
}

export type Reply = { message: object; delayMs: number; trailers?: Record<string, string> } | { failure: GrpcFailure; delayMs: number };

export interface Outgoing {
  message: object;
  /** Milliseconds to wait before sending it, counted from the previous message of the same plan (or from the call / the client message). */
  delayMs: number;
}

/** What to send, in order, and then how the call ends (OK when `end` is undefined). */
export interface StreamPlan {
  messages: Outgoing[];
  end?: GrpcFailure;
  /** Milliseconds between the last message (or the start) and `end`. */
  endDelayMs?: number;
}

export interface BidiSession {
  /** What to send as the call opens (a script's lines before its first `expect`). */
  start(): StreamPlan;
  /** A client message: the replies, and `end` when the call must fail now. */
  received(message: object): StreamPlan;
  /** The client half-closed: what is left to send, then the status. */
  end(): StreamPlan;
}

export interface MethodMock {
  readonly path: string;
  readonly requestType: protobuf.Type;
  readonly responseType: protobuf.Type;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
  unary(request: object, metadata: Metadata): Reply;
  clientStream(requests: readonly object[], metadata: Metadata): Reply;
  serverStream(request: object, metadata: Metadata): StreamPlan;
  bidi(metadata: Metadata): BidiSession;
}

/** A rule the engine refuses: the message names the rule (`grpc.methods[2]`) and what is wrong. */
export class GrpcRuleError extends Error {
  override name = 'GrpcRuleError';
}

interface CompiledError {
  code: number;
  message: Compiled;
  details: Array<{ compiled: Compiled; where: string }>;
  trailers: Compiled;
}

interface ScriptLine {
  expect?: JsonPathCondition[];
  send: Compiled[];
  delayMs: number;
  error?: CompiledError;
}

interface MethodRule {
  index: number;
  where: string;
  request: JsonPathCondition[];
  metadata: ValueCondition[];
  delayMs: number;
  response?: Compiled;
  responses?: Array<{ message: Compiled; delayMs?: number }>;
  error?: CompiledError;
  script?: ScriptLine[];
}

/** A call's request as templates and conditions read it: bytes as base64 text (the rules' JSON form). */
export function jsonView(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (Array.isArray(value)) return value.map(jsonView);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = jsonView(item);
    return out;
  }
  return value;
}

function firstValues(metadata: Metadata): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[key.toLowerCase()] = typeof first === 'string' ? first : String(first);
  }
  return out;
}

function metadataHolds(conditions: readonly ValueCondition[], metadata: Metadata): boolean {
  for (const { name, condition } of conditions) {
    const value = metadata[name];
    if (!holdsForAny(condition, value === undefined ? undefined : Array.isArray(value) ? value : [value])) return false;
  }
  return true;
}

function requestHolds(conditions: readonly JsonPathCondition[], document: unknown): boolean {
  for (const condition of conditions) if (!jsonPathHolds(condition, document)) return false;
  return true;
}

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);

/**
 * What every call of the mocked services answers: the first rule of grpc.methods whose method and
 * match hold, else a message generated from the response type. Protocol-free: the server
 * (runtime/servers/grpc*) decodes, encodes, waits the delays and writes statuses.
 */
export class GrpcEngine {
  private readonly methods = new Map<string, MethodMockImpl>();
  readonly generator: MessageGenerator;
  readonly templates: TemplateRuntime;
  readonly seed: number;

  constructor(
    readonly root: protobuf.Root,
    readonly settings: GrpcMockSettings,
  ) {
    root.resolveAll();
    this.seed = settings.seed ?? randomInt(0, 2 ** 31);
    this.generator = new MessageGenerator(this.seed, settings.now);
    this.templates = createTemplateRuntime({ seed: settings.seed, now: settings.now, plugins: settings.plugins });
    const compiler = new MessageCompiler(root);
    const services = new Map<string, protobuf.Service>();
    collectServices(root, services);
    for (const [name, service] of services) {
      for (const method of service.methodsArray) {
        method.resolve();
        const path = `${name}/${method.name}`;
        this.methods.set(path, new MethodMockImpl(this, path, method));
      }
    }
    settings.rules.forEach((rule, index) => {
      const where = `grpc.methods[${index}]`;
      if (rule === null || typeof rule !== 'object') throw new GrpcRuleError(`${where} must be an object with a method`);
      const targets = this.targets(rule.method, where);
      for (const target of targets) target.rules.push(compileRule(rule, index, where, target, compiler, targets.length > 1));
    });
  }

  /** The mock of `package.Service/Method` (a leading `/` is allowed), or undefined when no service has it. */
  method(path: string): MethodMock | undefined {
    return this.methods.get(path.startsWith('/') ? path.slice(1) : path);
  }

  /** Every mocked method's path, sorted. */
  paths(): string[] {
    return [...this.methods.keys()].sort();
  }

  private targets(method: unknown, where: string): MethodMockImpl[] {
    if (typeof method !== 'string' || !/^\/?[A-Za-z_][\w.]*\/(\*|[A-Za-z_]\w*)$/.test(method)) {
      throw new GrpcRuleError(`${where}.method must be "package.Service/Method" or "package.Service/*" (got ${show(method)})`);
    }
    const [service, name] = (method.startsWith('/') ? method.slice(1) : method).split('/') as [string, string];
    const ofService = [...this.methods.values()].filter((m) => m.service === service);
    if (ofService.length === 0) {
      const known = [...new Set([...this.methods.values()].map((m) => m.service))].sort();
      throw new GrpcRuleError(`${where}.method: no service ${service} in the .proto files (services: ${known.join(', ') || 'none'})`);
    }
    if (name === '*') return ofService;
    const target = ofService.find((m) => m.name === name);
    if (target === undefined) throw new GrpcRuleError(`${where}.method: ${service} has no method ${name} (methods: ${ofService.map((m) => m.name).join(', ')})`);
    return [target];
  }
}

function collectServices(namespace: protobuf.NamespaceBase, out: Map<string, protobuf.Service>): void {
  for (const nested of namespace.nestedArray) {
    if (nested instanceof protobuf.Service) out.set(nested.fullName.slice(1), nested);
    if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) collectServices(nested as protobuf.NamespaceBase, out);
  }
}

function compileRule(rule: GrpcMethodRule, index: number, where: string, target: MethodMockImpl, compiler: MessageCompiler, wildcard: boolean): MethodRule {
  const guard = <T>(at: string, fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      if (error instanceof CoerceError || error instanceof PatternError) throw new GrpcRuleError(`${error.message.startsWith(where) ? '' : `${at}: `}${error.message}`);
      if (error instanceof Error && !(error instanceof GrpcRuleError)) throw new GrpcRuleError(`${at}: ${error.message}`);
      throw error;
    }
  };
  const bidi = target.clientStreaming && target.serverStreaming;
  const match = rule.match ?? {};
  if (match === null || typeof match !== 'object') throw new GrpcRuleError(`${where}.match must be an object with request and/or metadata`);
  const request = guard(`${where}.match.request`, () => compileJsonPathConditions(match.request, 'exact', `${where}.match.request`));
  const metadata = guard(`${where}.match.metadata`, () => compileValueConditions(match.metadata, `${where}.match.metadata`, 'exact', true));
  const delayMs = rule.delay_ms ?? 0;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0 || delayMs > 3_600_000) {
    throw new GrpcRuleError(`${where}.delay_ms must be a number of milliseconds from 0 to 3600000 (got ${show(rule.delay_ms)})`);
  }
  const compiled: MethodRule = { index, where, request, metadata, delayMs };
  const response = target.responseType;
  const label = wildcard ? ` (for ${target.path})` : '';
  if (rule.response !== undefined) compiled.response = guard(`${where}.response${label}`, () => compiler.message(response, rule.response, `${where}.response${label}`));
  if (rule.responses !== undefined) {
    if (!Array.isArray(rule.responses)) throw new GrpcRuleError(`${where}.responses must be a list of {message, delay_ms}`);
    if (!target.serverStreaming && !wildcard) throw new GrpcRuleError(`${where}.responses: ${target.path} does not stream its responses; use response`);
    compiled.responses = rule.responses.map((item, i) => {
      const at = `${where}.responses[${i}]`;
      if (item === null || typeof item !== 'object' || !('message' in item)) throw new GrpcRuleError(`${at} must be {message: {...}, delay_ms?}`);
      return { message: guard(`${at}.message${label}`, () => compiler.message(response, item.message, `${at}.message${label}`)), delayMs: checkDelay(item.delay_ms, `${at}.delay_ms`) };
    });
  }
  if (rule.error !== undefined) compiled.error = guard(`${where}.error`, () => compileError(rule.error!, `${where}.error`, compiler));
  if (rule.script !== undefined) {
    if (!bidi && !wildcard) throw new GrpcRuleError(`${where}.script: ${target.path} is not bidirectional streaming; script is for bidirectional methods`);
    if (!Array.isArray(rule.script)) throw new GrpcRuleError(`${where}.script must be a list of {expect?, send?, delay_ms?, error?}`);
    if (request.length > 0) throw new GrpcRuleError(`${where}: a script is chosen when the call opens, before any message: match it on metadata, and put message conditions in the lines' expect`);
    compiled.script = rule.script.map((line, i) => {
      const at = `${where}.script[${i}]`;
      if (line === null || typeof line !== 'object') throw new GrpcRuleError(`${at} must be {expect?, send?, delay_ms?, error?}`);
      const expect = line.expect === undefined ? undefined : guard(`${at}.expect`, () => compileJsonPathConditions(line.expect, 'exact', `${at}.expect`));
      const sends = line.send ?? [];
      if (!Array.isArray(sends)) throw new GrpcRuleError(`${at}.send must be a list of messages`);
      const send = sends.map((message, j) => guard(`${at}.send[${j}]${label}`, () => compiler.message(response, message, `${at}.send[${j}]${label}`)));
      const out: ScriptLine = { send, delayMs: checkDelay(line.delay_ms, `${at}.delay_ms`) ?? 0 };
      if (expect !== undefined) out.expect = expect;
      if (line.error !== undefined) out.error = guard(`${at}.error`, () => compileError(line.error!, `${at}.error`, compiler));
      return out;
    });
  }
  return compiled;
}

function checkDelay(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 3_600_000) throw new GrpcRuleError(`${where} must be a number of milliseconds from 0 to 3600000 (got ${show(value)})`);
  return value;
}

function compileError(rule: GrpcErrorRule, where: string, compiler: MessageCompiler): CompiledError {
  if (rule === null || typeof rule !== 'object') throw new GrpcRuleError(`${where} must be {code, message?, details?, trailers?}`);
  let code: number;
  try {
    code = statusCode(rule.code);
  } catch (error) {
    throw new GrpcRuleError(`${where}.code: ${(error as Error).message}`);
  }
  const details = (rule.details ?? []).map((detail, i) => {
    const at = `${where}.details[${i}]`;
    if (detail === null || typeof detail !== 'object' || typeof detail['@type'] !== 'string') throw new GrpcRuleError(`${at} needs "@type", e.g. type.googleapis.com/google.rpc.ErrorInfo`);
    const compiled = compileJson(detail, at);
    // packed once now: a detail that does not fit its type is refused with the rule
    if (compiled.constant) compiled.value = compiler.pack(detail['@type'], detail, at);
    else compiler.pack(detail['@type'], {}, at);
    return { compiled, where: at };
  });
  if (rule.trailers !== undefined && (rule.trailers === null || typeof rule.trailers !== 'object' || Array.isArray(rule.trailers))) {
    throw new GrpcRuleError(`${where}.trailers must map metadata keys to text`);
  }
  const trailers: Record<string, string> = {};
  for (const [key, value] of Object.entries(rule.trailers ?? {})) {
    const name = key.toLowerCase();
    if (!/^[0-9a-z_.-]+$/.test(name) || name.startsWith('grpc-')) throw new GrpcRuleError(`${where}.trailers: ${show(key)} is not a metadata key a rule may set (letters, digits, - _ .; not grpc-*)`);
    trailers[name] = typeof value === 'string' ? value : String(value);
  }
  return { code, message: compileJson(rule.message ?? '', `${where}.message`), details, trailers: compileJson(trailers, `${where}.trailers`) };
}

class MethodMockImpl implements MethodMock {
  readonly rules: MethodRule[] = [];
  readonly requestType: protobuf.Type;
  readonly responseType: protobuf.Type;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
  readonly service: string;
  readonly name: string;
  private readonly hash: number;
  private readonly countField: string | undefined;

  constructor(
    private readonly engine: GrpcEngine,
    readonly path: string,
    method: protobuf.Method,
  ) {
    this.requestType = method.resolvedRequestType!;
    this.responseType = method.resolvedResponseType!;
    this.clientStreaming = method.requestStream === true;
    this.serverStreaming = method.responseStream === true;
    [this.service, this.name] = path.split('/') as [string, string];
    this.hash = hashString(engine.seed, path);
    this.countField = this.clientStreaming ? countField(this.responseType, this.requestType) : undefined;
  }

  unary(request: object, metadata: Metadata): Reply {
    const body = jsonView(request);
    const rule = this.find(metadata, (r) => requestHolds(r.request, body));
    return this.reply(rule, body, metadata, () => this.generated(hashMessage(this.hash, request)));
  }

  clientStream(requests: readonly object[], metadata: Metadata): Reply {
    const bodies = requests.map(jsonView);
    const rule = this.find(metadata, (r) => (r.request.length === 0 ? true : bodies.length === 0 ? requestHolds(r.request, undefined) : bodies.some((b) => requestHolds(r.request, b))));
    const last = bodies.at(-1);
    return this.reply(rule, last, metadata, () => {
      const message = this.generated(hashMessage(mix(this.hash, 0xc5), requests));
      if (this.countField !== undefined) message[this.countField] = this.responseType.fields[this.countField]!.type.endsWith('64') ? String(requests.length) : requests.length;
      return message;
    });
  }

  serverStream(request: object, metadata: Metadata): StreamPlan {
    const body = jsonView(request);
    const rule = this.find(metadata, (r) => requestHolds(r.request, body));
    const { count, intervalMs } = this.engine.settings.stream;
    const h = hashMessage(this.hash, request);
    const ruleDelay = rule?.delayMs ?? 0;
    const gap = (i: number, own?: number): number => ruleDelay + (own ?? (i === 0 ? 0 : intervalMs));
    try {
      if (rule === undefined) return { messages: Array.from({ length: count }, (_, i) => ({ message: this.generated(mix(h, i)), delayMs: gap(i) })) };
      const context = this.context(body, metadata);
      const t = this.engine.templates;
      let messages: Outgoing[];
      if (rule.responses !== undefined) messages = rule.responses.map((item, i) => ({ message: item.message.build(t, context) as object, delayMs: gap(i, item.delayMs) }));
      else if (rule.response !== undefined) messages = Array.from({ length: rule.error === undefined ? count : 0 }, (_, i) => ({ message: rule.response!.build(t, context) as object, delayMs: gap(i) }));
      else if (rule.error !== undefined) messages = [];
      else messages = Array.from({ length: count }, (_, i) => ({ message: this.generated(mix(h, i)), delayMs: gap(i) }));
      if (rule.error === undefined) return { messages };
      return { messages, end: this.failure(rule.error, context), endDelayMs: messages.length === 0 ? ruleDelay : 0 };
    } catch (error) {
      return { messages: [], end: this.internal(rule!, error), endDelayMs: 0 };
    }
  }

  bidi(metadata: Metadata): BidiSession {
    const script = this.rules.find((r) => r.script !== undefined && metadataHolds(r.metadata, metadata));
    if (script !== undefined) return new ScriptSession(this, script, metadata);
    let index = 0;
    let ended = false;
    return {
      start: () => ({ messages: [] }),
      received: (message) => {
        if (ended) return { messages: [] };
        const body = jsonView(message);
        const rule = this.find(metadata, (r) => r.script === undefined && requestHolds(r.request, body));
        const reply = this.reply(rule, body, metadata, () => this.generated(hashMessage(mix(this.hash, index), message)));
        index++;
        if ('failure' in reply) {
          ended = true;
          return { messages: [], end: reply.failure, endDelayMs: reply.delayMs };
        }
        return { messages: [{ message: reply.message, delayMs: reply.delayMs }] };
      },
      end: () => ({ messages: [] }),
    };
  }

  // ---- shared

  find(metadata: Metadata, holds: (rule: MethodRule) => boolean): MethodRule | undefined {
    for (const rule of this.rules) if (metadataHolds(rule.metadata, metadata) && holds(rule)) return rule;
    return undefined;
  }

  context(body: unknown, metadata: Metadata): TemplateContext {
    return { path: {}, query: {}, headers: firstValues(metadata), body };
  }

  generated(h: number): Record<string, unknown> {
    return this.engine.generator.message(this.responseType, mix(this.engine.seed, h));
  }

  private reply(rule: MethodRule | undefined, body: unknown, metadata: Metadata, generate: () => Record<string, unknown>): Reply {
    if (rule === undefined) return { message: generate(), delayMs: 0 };
    try {
      const context = this.context(body, metadata);
      if (rule.error !== undefined) return { failure: this.failure(rule.error, context), delayMs: rule.delayMs };
      if (rule.response !== undefined) return { message: rule.response.build(this.engine.templates, context) as object, delayMs: rule.delayMs };
      return { message: generate(), delayMs: rule.delayMs };
    } catch (error) {
      return { failure: this.internal(rule, error), delayMs: rule.delayMs };
    }
  }

  failure(error: CompiledError, context: TemplateContext): GrpcFailure {
    const t = this.engine.templates;
    const message = String(error.message.build(t, context));
    const out: GrpcFailure = { code: error.code, message };
    const trailers = error.trailers.build(t, context) as Record<string, string>;
    if (Object.keys(trailers).length > 0) out.trailers = trailers;
    if (error.details.length > 0) {
      const compiler = new MessageCompiler(this.engine.root);
      const packed = error.details.map(({ compiled, where }): PackedDetail => {
        if (compiled.constant) return compiled.value as PackedDetail;
        const detail = compiled.build(t, context) as Record<string, unknown>;
        return compiler.pack(detail['@type'], detail, where);
      });
      out.details = encodeStatus(error.code, message, packed);
    }
    return out;
  }

  /** A template whose output does not fit its field: the call fails INTERNAL, naming the rule and the field. */
  internal(rule: MethodRule, error: unknown): GrpcFailure {
    if (!(error instanceof CoerceError)) throw error;
    return { code: GRPC.INTERNAL, message: `mock: ${error.message.startsWith(rule.where) ? '' : `${rule.where}: `}${error.message}` };
  }
}

/**
 * A bidirectional script, top to bottom: a line with `expect` waits for a client message that
 * meets it (others are not answered), then sends; lines without it send as soon as the line
 * before them is done, each after its delay_ms; an `error` line ends the call with its status.
 */
class ScriptSession implements BidiSession {
  private next = 0;
  private ended = false;
  private readonly context: TemplateContext;

  constructor(
    private readonly mock: MethodMockImpl,
    private readonly rule: MethodRule,
    metadata: Metadata,
  ) {
    this.context = mock.context(undefined, metadata);
  }

  start(): StreamPlan {
    return this.play();
  }

  received(message: object): StreamPlan {
    if (this.ended) return { messages: [] };
    const line = this.rule.script![this.next];
    if (line === undefined || line.expect === undefined) return { messages: [] };
    const body = jsonView(message);
    if (!requestHolds(line.expect, body)) return { messages: [] };
    this.context.body = body;
    return this.play(true);
  }

  end(): StreamPlan {
    this.ended = true;
    return { messages: [] };
  }

  /** Plays from the current line until one waits for a message (`released`: the current line's expect was just met). */
  private play(released = false): StreamPlan {
    const script = this.rule.script!;
    const plan: StreamPlan = { messages: [] };
    let pending = this.rule.delayMs;
    const t = this.mock['engine'].templates as TemplateRuntime;
    try {
      while (this.next < script.length) {
        const line = script[this.next]!;
        if (line.expect !== undefined && !released) break;
        released = false;
        this.next++;
        pending += line.delayMs;
        for (const send of line.send) {
          plan.messages.push({ message: send.build(t, this.context) as object, delayMs: pending });
          pending = 0;
        }
        if (line.error !== undefined) {
          this.ended = true;
          plan.end = this.mock.failure(line.error, this.context);
          plan.endDelayMs = pending;
          return plan;
        }
      }
    } catch (error) {
      this.ended = true;
      return { messages: plan.messages, end: this.mock.internal(this.rule, error), endDelayMs: 0 };
    }
    return plan;
  }
}

/** A response field that counts what a client stream sent (`point_count` for Points, `count`, `total`, `*_count`). */
function countField(response: protobuf.Type, request: protobuf.Type): string | undefined {
  const ints = response.fieldsArray.filter((f) => !f.repeated && !f.map && f.partOf === null && /^(u?int(32|64)|s?fixed(32|64)|sint(32|64))$/.test(f.type));
  const counting = ints.filter((f) => /(^|_)(count|total)$|Count$|^num_|^received/i.test(f.name));
  if (counting.length === 0) return undefined;
  const noun = request.name.replace(/(Request|Message|Msg)$/, '').toLowerCase();
  const own = counting.find((f) => f.name.toLowerCase().replace(/_/g, '').startsWith(noun));
  return (own ?? counting.find((f) => /^(count|total|message_?count|messages?_?received|received)$/i.test(f.name)) ?? (counting.length === 1 ? counting[0] : undefined))?.name;
}

