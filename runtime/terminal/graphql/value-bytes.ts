/**
 * An estimate of the memory a value from a request takes once kept (V8 on 64 bits, no pointer
 * compression), erring high: a string's header and two bytes a character (one-byte strings take
 * half; scanning them to tell costs more than it saves), a slot per property or element, a heap
 * number per number, an object's or an array's header. Walked with a stack, not recursion: input
 * values come from JSON of any depth.
 */
const STRING_HEADER = 16;
const SLOT = 8;
const HEAP_NUMBER = 16;
const OBJECT_HEADER = 56;
const ARRAY_HEADER = 32;

export function valueBytes(value: unknown): number {
  let bytes = 0;
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const item = pending.pop();
    bytes += SLOT;
    switch (typeof item) {
      case 'string':
        bytes += STRING_HEADER + 2 * item.length;
        break;
      case 'number':
      case 'bigint':
        bytes += HEAP_NUMBER;
        break;
      case 'object': {
        if (item === null || seen.has(item)) break;
        seen.add(item);
        if (Array.isArray(item)) {
          bytes += ARRAY_HEADER;
          for (const element of item) pending.push(element);
        } else {
          bytes += OBJECT_HEADER;
          for (const key of Object.keys(item)) {
            bytes += STRING_HEADER + 2 * key.length;
            pending.push((item as Record<string, unknown>)[key]);
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return bytes;
}
