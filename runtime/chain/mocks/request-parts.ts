/** Query as templates read it: one value as a string, repeated ones as a list. */
export function queryRecord(query: ReadonlyMap<string, string[]>): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const [name, values] of query) record[name] = values.length === 1 ? values[0] : values;
  return record;
}
