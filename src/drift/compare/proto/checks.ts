import type { Change, Severity } from '../types.js';
import type { FieldShape, MessageShape, MethodShape, ProtoModel } from './model.js';

/**
 * The .proto checks: each difference between two models as one Change with a stable id
 * (docs/contract-diff-graphql-proto.md lists them). Breaking means an existing client or server
 * generated from the old files fails against the new ones, on the wire or in its generated code.
 */
export function protoChanges(old: ProtoModel, next: ProtoModel): Change[] {
  const changes: Change[] = [];
  const report = (id: string, severity: Severity, location: string, message: string): void => {
    changes.push({ id, severity, kind: 'proto', location, message });
  };
  compareServices(old, next, report);
  compareMessages(old, next, report);
  compareEnums(old, next, report);
  return changes;
}

type Report = (id: string, severity: Severity, location: string, message: string) => void;

function compareServices(old: ProtoModel, next: ProtoModel, report: Report): void {
  for (const [service, methods] of old.services) {
    const after = next.services.get(service);
    if (after === undefined) {
      report('service-removed', 'error', service, `service ${service} was removed: every call to its ${methods.size} method(s) fails with UNIMPLEMENTED`);
      continue;
    }
    for (const [name, method] of methods) {
      const location = `${service}/${name}`;
      const now = after.get(name);
      if (now === undefined) report('method-removed', 'error', location, `method ${location} was removed: calls to it fail with UNIMPLEMENTED`);
      else compareMethod(location, method, now, report);
    }
    for (const name of after.keys()) if (!methods.has(name)) report('method-added', 'info', `${service}/${name}`, `method ${service}/${name} was added`);
  }
  for (const service of next.services.keys()) if (!old.services.has(service)) report('service-added', 'info', service, `service ${service} was added`);
}

function compareMethod(location: string, old: MethodShape, now: MethodShape, report: Report): void {
  if (old.requestType !== now.requestType) report('method-request-type-changed', 'error', location, `the request of ${location} changed from ${old.requestType} to ${now.requestType}`);
  if (old.responseType !== now.responseType) report('method-response-type-changed', 'error', location, `the response of ${location} changed from ${old.responseType} to ${now.responseType}`);
  const streaming = (client: boolean, what: string): string => (client ? `a stream of ${what}s` : `one ${what}`);
  if (old.clientStreaming !== now.clientStreaming) {
    report('method-client-streaming-changed', 'error', location, `${location} now takes ${streaming(now.clientStreaming, 'request')} instead of ${streaming(old.clientStreaming, 'request')}`);
  }
  if (old.serverStreaming !== now.serverStreaming) {
    report('method-server-streaming-changed', 'error', location, `${location} now answers ${streaming(now.serverStreaming, 'response')} instead of ${streaming(old.serverStreaming, 'response')}`);
  }
}

function compareMessages(old: ProtoModel, next: ProtoModel, report: Report): void {
  for (const [message, fields] of old.messages) {
    const after = next.messages.get(message);
    if (after === undefined) report('message-removed', 'error', message, `message ${message} was removed: code generated from the old files no longer builds against the new ones`);
    else compareFields(message, fields, after, report);
  }
  for (const message of next.messages.keys()) if (!old.messages.has(message)) report('message-added', 'info', message, `message ${message} was added`);
}

/** Fields are matched by number (what the wire carries), then by name (what generated code and JSON use). */
function compareFields(message: string, old: MessageShape, now: MessageShape, report: Report): void {
  for (const field of old.byNumber.values()) {
    const location = `${message}.${field.name}`;
    const sameNumber = now.byNumber.get(field.number);
    const sameName = now.byName.get(field.name);
    if (sameName !== undefined && sameName.number !== field.number) {
      report('field-number-changed', 'error', location, `field ${location} moved from number ${field.number} to ${sameName.number}: old and new peers read each other's values as unknown fields`);
      compareShape(location, field, sameName, report);
    }
    if (sameNumber === undefined) {
      if (sameName === undefined) report('field-removed', 'error', location, `field ${location} (number ${field.number}) was removed`);
    } else if (sameNumber.name === field.name) {
      compareShape(location, field, sameNumber, report);
    } else if (sameName === undefined && sameNumber.type === field.type && sameNumber.label === field.label) {
      report(
        'field-renamed',
        'warning',
        location,
        `field ${location} (number ${field.number}) was renamed ${sameNumber.name}: the binary wire format is unchanged, but JSON and generated code use the new name`,
      );
    } else {
      const newLocation = `${message}.${sameNumber.name}`;
      report(
        'field-number-reused',
        'error',
        newLocation,
        `number ${field.number} of ${message}, once ${field.name} (${describe(field)}), is reused by ${sameNumber.name} (${describe(sameNumber)}): old peers misread it`,
      );
    }
  }
  for (const field of now.byNumber.values()) {
    if (!old.byNumber.has(field.number) && !old.byName.has(field.name)) report('field-added', 'info', `${message}.${field.name}`, `field ${message}.${field.name} (number ${field.number}) was added`);
  }
}

const describe = (field: FieldShape): string => (field.label === 'singular' || field.label === 'map' ? field.type : `${field.label} ${field.type}`);

/** Scalars whose values the wire carries the same way, so an old peer still reads a changed one (maybe truncated). */
const WIRE_GROUPS: readonly (readonly string[])[] = [
  ['int32', 'int64', 'uint32', 'uint64', 'bool'],
  ['sint32', 'sint64'],
  ['fixed32', 'sfixed32'],
  ['fixed64', 'sfixed64'],
  ['string', 'bytes'],
];
const wireCompatible = (a: string, b: string): boolean => WIRE_GROUPS.some((group) => group.includes(a) && group.includes(b));

function compareShape(location: string, old: FieldShape, now: FieldShape, report: Report): void {
  if (old.type !== now.type) {
    if (wireCompatible(old.type, now.type)) {
      report(
        'field-type-changed-wire-compatible',
        'warning',
        location,
        `field ${location} changed type from ${old.type} to ${now.type}: same wire encoding, but values may be truncated or reinterpreted and generated code changes`,
      );
    } else {
      report('field-type-changed', 'error', location, `field ${location} changed type from ${old.type} to ${now.type}`);
    }
  }
  if (old.label !== now.label) report('field-label-changed', 'error', location, `field ${location} changed from ${old.label} to ${now.label}`);
}

function compareEnums(old: ProtoModel, next: ProtoModel, report: Report): void {
  for (const [name, values] of old.enums) {
    const after = next.enums.get(name);
    if (after === undefined) {
      report('enum-removed', 'error', name, `enum ${name} was removed`);
      continue;
    }
    const namesByNumber = new Map([...after].map(([value, number]) => [number, value]));
    for (const [value, number] of values) {
      const location = `${name}.${value}`;
      const now = after.get(value);
      if (now === number) continue;
      if (now !== undefined) report('enum-value-number-changed', 'error', location, `enum value ${location} changed number from ${number} to ${now}`);
      else if (namesByNumber.has(number) && !values.has(namesByNumber.get(number)!)) {
        report(
          'enum-value-renamed',
          'warning',
          location,
          `enum value ${location} (number ${number}) was renamed ${namesByNumber.get(number)}: the binary wire format is unchanged, JSON and generated code use the new name`,
        );
      } else report('enum-value-removed', 'error', location, `enum value ${location} (number ${number}) was removed`);
    }
    for (const [value, number] of after) {
      if (!values.has(value) && ![...values.values()].includes(number)) report('enum-value-added', 'info', `${name}.${value}`, `enum value ${name}.${value} (number ${number}) was added`);
    }
  }
  for (const name of next.enums.keys()) if (!old.enums.has(name)) report('enum-added', 'info', name, `enum ${name} was added`);
}
