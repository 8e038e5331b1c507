/** Edit distance between two strings (Levenshtein), for "did you mean" hints. */
function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/** The candidate closest to `name` (case-insensitive), or undefined when none is close. */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const lower = name.toLowerCase();
  for (const candidate of candidates) {
    const value = distance(lower, candidate.toLowerCase());
    if (value < bestDistance) {
      best = candidate;
      bestDistance = value;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 2)) ? best : undefined;
}

/** " (did you mean x?)" or "" — appended to error messages. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const match = nearest(name, candidates);
  return match === undefined ? "" : ` (did you mean ${match}?)`;
}
