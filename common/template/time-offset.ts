const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds for the part after `now` ('' | '+1h' | '-30m'), undefined when malformed. */
export function parseTimeOffset(suffix: string): number | undefined {
  if (suffix === '') return 0;
  const match = /^([+-])\s*(\d+)\s*([smhd])$/.exec(suffix);
  if (!match) return undefined;
  const ms = Number(match[2]) * UNIT_MS[match[3]];
  return match[1] === '-' ? -ms : ms;
}
