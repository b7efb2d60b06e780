/** Small formatting helpers shared by the pages. */

export const fmtMs = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '–' : Number.isInteger(ms) ? String(ms) : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : Math.round(ms).toString());

export const fmtInt = (n: number | null | undefined): string => (n === null || n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));

export const fmtPct = (ratio: number | null | undefined): string => (ratio === null || ratio === undefined ? '–' : `${(ratio * 100).toFixed(ratio < 0.1 ? 2 : 1)}%`);

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
