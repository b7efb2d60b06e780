/** Small formatting helpers shared by the pages. */

export const fmtMs = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '–' : Number.isInteger(ms) ? String(ms) : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : Math.round(ms).toString());

export const fmtInt = (n: number | null | undefined): string => (n === null || n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));

export const fmtPct = (ratio: number | null | undefined): string => (ratio === null || ratio === undefined ? '–' : `${(ratio * 100).toFixed(ratio < 0.1 ? 2 : 1)}%`);

/** A number as people read it: whole numbers whole, fractions to two decimals (four below 1) without trailing zeros: `16.666666666666668` → `16.67`. */
export const fmtNum = (n: number): string => (Number.isInteger(n) || !Number.isFinite(n) ? String(n) : String(Number(n.toFixed(Math.abs(n) < 1 ? 4 : 2))));

/** Any value of an API answer as one short text: `–` for none, numbers by fmtNum, objects as JSON. */
export const fmtValue = (v: unknown): string => (v === null || v === undefined ? '–' : typeof v === 'number' ? fmtNum(v) : typeof v === 'object' ? JSON.stringify(v) : String(v));

export const fmtTime = (iso: string): string => iso.slice(11, 23);

export const statusClass = (status: number): string => (status >= 500 || status === 0 ? 's5' : status >= 400 ? 's4' : status >= 300 ? 's3' : 's2');

/** Saves `text` as a file through a temporary object URL (no server round trip). */
export function download(name: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
