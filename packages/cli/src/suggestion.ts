/** " (did you mean 'x'?)" for the candidate nearest to `input`, or "" when none is close or the input is long. */
export function suggestion(input: string, candidates: readonly string[]): string {
  // Only short names are compared: a hint never costs what an arbitrarily long argument would.
  if (input.length > 64) return "";
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const value = distance(input.toLowerCase(), candidate.toLowerCase());
    if (value < bestDistance) {
      best = candidate;
      bestDistance = value;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(input.length / 2))
    ? ` (did you mean '${best}'?)`
    : "";
}

function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] as number;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] as number;
      previous[j] = Math.min(
        above + 1,
        (previous[j - 1] as number) + 1,
        diagonal + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diagonal = above;
    }
  }
  return previous[b.length] as number;
}
