// csv-stringify (of the well-kept node-csv project) does the RFC 4180 quoting and escaping of
// cells holding commas, quotes and line breaks; hand-rolled CSV quoting is easy to get subtly wrong.
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { stringify as stringifyYaml } from 'yaml';
import type { DataFormat } from './flags.js';

/**
 * The text of `values` in `format`. json and yaml: one value on its own, several as an array.
 * csv: one row per value (see flattenRecord), header from the union of keys in first-seen order.
 */
export function formatValues(values: readonly unknown[], format: DataFormat): string {
  const document = values.length === 1 ? values[0] : values;
  switch (format) {
    case 'json':
      return `${JSON.stringify(document, null, 2) ?? 'null'}\n`;
    case 'yaml':
      // fresh objects each time, but never emit anchors/aliases for equal ones; keep long strings on one line
      return stringifyYaml(document, { aliasDuplicateObjects: false, lineWidth: 0 });
    case 'csv':
      return toCsv(values);
  }
}

/** Column of a value that is not an object (a string, a number, an array...). */
export const VALUE_COLUMN = 'value';

/**
 * One CSV row: nested object fields become dotted columns (`owner.email`), arrays are JSON text,
 * an empty nested object is `{}`, null is an empty cell, other scalars are their text. A value
 * that is not an object at all (an array response, a string) fills the single column `value`.
 */
export function flattenRecord(value: unknown): Map<string, string> {
  const row = new Map<string, string>();
  if (isPlainObject(value)) flattenInto(value, '', row);
  else row.set(VALUE_COLUMN, cell(value));
  return row;
}

function flattenInto(object: Record<string, unknown>, prefix: string, row: Map<string, string>): void {
  for (const [key, value] of Object.entries(object)) {
    const column = prefix + key;
    if (isPlainObject(value) && Object.keys(value).length > 0) flattenInto(value, `${column}.`, row);
    else row.set(column, cell(value));
  }
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function toCsv(values: readonly unknown[]): string {
  const rows = values.map(flattenRecord);
  const columns = new Map<string, number>();
  for (const row of rows) for (const key of row.keys()) if (!columns.has(key)) columns.set(key, columns.size);
  const header = [...columns.keys()];
  // rows as arrays: csv-stringify would read dotted column keys of objects as paths
  return stringifyCsv([header, ...rows.map((row) => header.map((key) => row.get(key) ?? ''))]);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
