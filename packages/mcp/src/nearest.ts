/** Edit distance between two strings (Levenshtein), for "did you mean" hints. */
function distance(from: string, to: string): number {
  let previous = Array.from({ length: to.length + 1 }, (_, index) => index);
  for (let row = 1; row <= from.length; row++) {
    const current = [row];
    for (let column = 1; column <= to.length; column++) {
      const substitution = (previous[column - 1] ?? 0) + (from[row - 1] === to[column - 1] ? 0 : 1);
      current[column] = Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[to.length] ?? 0;
}

/** " (did you mean 'x'?)" for the candidate nearest to `name`, or "" when none is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const value = distance(name.toLowerCase(), candidate.toLowerCase());
    if (value < bestDistance) {
      best = candidate;
      bestDistance = value;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 2))
    ? ` (did you mean '${best}'?)`
    : "";
}

/** Throws for any key of `options` not in `known`, naming it and the nearest known one. */
export function refuseUnknownOptions(
  options: object,
  known: readonly string[],
  where: string,
  fail: (message: string) => Error,
): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw fail(
        `${where}: unknown option '${key}'${didYouMean(key, known)}; known options: ${known.join(", ")}`,
      );
    }
  }
}
