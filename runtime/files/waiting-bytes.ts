/**
 * The bytes of every recording of a process waiting to be written (core.fixtures.max_unsaved_mb):
 * HTTP fixtures queued, and the lines of WebSocket sessions and gRPC calls not written yet. On a
 * disk slower than the traffic each recording could otherwise hold up to max_recording_mb, however
 * many there are.
 */
export class WaitingBytes {
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** Holds `bytes` more when they fit (always when `force`: a small closing line); false when not. */
  reserve(bytes: number, force = false): boolean {
    if (!force && this.held + bytes > this.maxBytes) return false;
    this.held += bytes;
    return true;
  }

  /** Written (or dropped): no longer waiting. */
  release(bytes: number): void {
    this.held -= bytes;
  }

  get bytes(): number {
    return this.held;
  }
}
