/**
 * The close a `ws` error stands for: the package fails a connection that breaks RFC 6455 (invalid
 * UTF-8, an unmasked frame, an oversized message) by sending a close frame with the error's status
 * code, kept under its own symbol `status-code` on the error, and the error's message as the reason.
 */
export function closeOfError(e: Error): { code: number; reason: string } {
  const key = Object.getOwnPropertySymbols(e).find((symbol) => symbol.description === 'status-code');
  const code = key === undefined ? undefined : (e as unknown as Record<symbol, unknown>)[key];
  return { code: typeof code === 'number' ? code : 1006, reason: e.message };
}
