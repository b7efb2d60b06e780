/** Edit distance (insertions, deletions, substitutions), for "did you mean" lists. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** Up to `limit` of `candidates` nearest to `wanted` (case-insensitive), nearest first, ties in given order. */
export function closest(wanted: string, candidates: readonly string[], limit: number): string[] {
  const w = wanted.toLowerCase();
  return candidates
    .map((candidate, index) => ({ candidate, index, distance: editDistance(w, candidate.toLowerCase()) }))
    .sort((x, y) => x.distance - y.distance || x.index - y.index)
    .slice(0, limit)
    .map((x) => x.candidate);
}
