/**
 * RFC 7396 JSON merge patch: `patch` applied to `target`, neither modified (untouched subtrees are
 * shared). Objects are built without a prototype so a `__proto__` key stays a plain key.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = Object.assign(Object.create(null), isObject(target) ? target : {});
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
