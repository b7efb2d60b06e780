import type { ControlReply } from './control-types.js';

/** Admin answers carry `{success, data, error, timestamp}` (the health endpoint excepted). */
export interface Envelope {
  success: boolean;
  data: unknown;
  error: string | null;
  timestamp: string;
}

export const JSON_TYPE: [string, string] = ['content-type', 'application/json; charset=utf-8'];

export function ok(data: unknown, status = 200): ControlReply {
  const envelope: Envelope = { success: true, data: data ?? null, error: null, timestamp: new Date().toISOString() };
  return { status, headers: [JSON_TYPE], body: JSON.stringify(envelope) };
}

export function fail(status: number, error: string): ControlReply {
  const envelope: Envelope = { success: false, data: null, error, timestamp: new Date().toISOString() };
  return { status, headers: [JSON_TYPE], body: JSON.stringify(envelope) };
}

/** A JSON answer without the envelope (health). */
export function plain(value: unknown, status = 200): ControlReply {
  return { status, headers: [JSON_TYPE], body: JSON.stringify(value) };
}

/** An expected failure an endpoint throws; the router turns it into an envelope. */
export class AdminError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'AdminError';
    this.status = status;
  }
}
