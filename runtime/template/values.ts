/** How values become text; missing values render as the empty string. */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Text escaped as the content of a JSON string, so a JSON body stays valid. */
export function toJsonContent(value: unknown): string {
  return JSON.stringify(toText(value)).slice(1, -1);
}

/** Handlebars-like truthiness: missing, null, false, 0, '' and [] are false. */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== null && value !== false && value !== 0 && value !== '';
}
