/**
 * How deeply JSON given to the admin API (and override rules from variables and files) may nest
 * arrays and objects. What takes it walks it recursively (Ajv's validators, merge patches, template
 * scans, structuredClone, JSON.stringify), and a few megabytes of brackets would overflow the stack
 * there: deeper input is refused up front with a 400 or a one-line error instead.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests arrays and objects more than `max` levels deep (`[]` is one level, a scalar
 * none). Recurses at most `max` levels itself, whatever the input.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max <= 0) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    if (nestsDeeperThan(child, max - 1)) return true;
  }
  return false;
}

/**
 * Whether `e` is V8's stack overflow. What walks a request's data recursively (Ajv's validators of a
 * schema that references itself, JSON.stringify of a body a template echoes) overflows on a body
 * nested deeply enough; catching that where it is called costs the request path nothing, where a
 * depth check of every body would.
 */
export const isStackOverflow = (e: unknown): boolean => e instanceof RangeError && e.message.includes('call stack');
