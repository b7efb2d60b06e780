/**
 * What a control surface (the admin API, the management router, metrics) takes and answers,
 * library-free: each server adapter turns its own requests into these.
 */

/** A request to a control surface (admin API, management router, metrics), library-free. */
export interface ControlRequest {
  method: string;
  /** Path without the query string, as received. */
  path: string;
  /** Raw query string without `?`. */
  query: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: Buffer;
  /** Set (to the limit) when the body was larger than the limit; `body` is then undefined. */
  oversized?: number;
  clientIp: string;
}

export interface ControlReply {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

/** One client connection of a stream, as the adapter writes to it. */
export interface StreamSink {
  /**
   * Queues `chunk` and returns how many bytes of the earlier chunks the client had still not taken
   * (the part the kernel's socket buffers could not hold either): exact on node:http
   * (`writableLength`); on uWS an upper bound, since its HttpResponse does not report what it holds.
   */
  send(chunk: string): number;
  /** Drops the connection at once, with whatever it had not taken. */
  close(): void;
}

/** A long-lived answer (Server-Sent Events): `open` starts sending and returns what to call once the connection is gone. */
export interface ControlStream {
  status: number;
  headers: Array<[string, string]>;
  open(sink: StreamSink): () => void;
}

export type ControlResponse = ControlReply | ControlStream;
export type ControlHandler = (req: ControlRequest) => Promise<ControlResponse>;
