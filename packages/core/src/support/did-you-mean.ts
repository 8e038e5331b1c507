/**
 * "Did you mean" hints over names an attacker may choose (an MCP tool name, a model's tool call,
 * an endpoint option). The cost is bounded before any work starts: a name longer than
 * `MAX_SUGGESTED_NAME_CHARS` gets no hint, longer candidates are skipped, only the first
 * `MAX_SUGGESTION_CANDIDATES` candidates are compared, and a candidate whose length differs by
 * more than the threshold is skipped without computing a distance. One comparison is at most
 * 64 × 64 steps, so a hint costs at most about a million steps whatever was sent.
 */

/** Longest name (and candidate) compared for a hint. */
export const MAX_SUGGESTED_NAME_CHARS = 64;
/** Candidates compared for one hint. */
export const MAX_SUGGESTION_CANDIDATES = 256;

/** Options of `nearestName` and `didYouMean`. */
export interface DidYouMeanOptions {
  /** Quote the suggestion: `(did you mean 'x'?)` instead of `(did you mean x?)`. */
  readonly quoted?: boolean;
}

/**
 * The candidate closest to `input` by edit distance (case-insensitive), when the distance is at
 * most max(2, length / 2); undefined when none is close, or the input is too long to compare.
 */
export function nearestName(input: string, candidates: Iterable<string>): string | undefined {
  if (typeof input !== "string" || input.length > MAX_SUGGESTED_NAME_CHARS) return undefined;
  const threshold = Math.max(2, Math.floor(input.length / 2));
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = threshold + 1;
  let compared = 0;
  for (const candidate of candidates) {
    if (compared >= MAX_SUGGESTION_CANDIDATES) break;
    compared += 1;
    if (typeof candidate !== "string" || candidate.length > MAX_SUGGESTED_NAME_CHARS) continue;
    if (Math.abs(candidate.length - input.length) >= bestDistance) continue;
    const value = editDistance(lower, candidate.toLowerCase());
    if (value < bestDistance) {
      best = candidate;
      bestDistance = value;
    }
  }
  return best;
}

/** " (did you mean x?)" for the nearest candidate, or "" when none is close; see `nearestName`. */
export function didYouMean(
  input: string,
  candidates: Iterable<string>,
  options: DidYouMeanOptions = {},
): string {
  const match = nearestName(input, candidates);
  if (match === undefined) return "";
  return options.quoted === true ? ` (did you mean '${match}'?)` : ` (did you mean ${match}?)`;
}

/** Levenshtein distance; both strings are at most `MAX_SUGGESTED_NAME_CHARS` long here. */
function editDistance(from: string, to: string): number {
  const previous = Array.from({ length: to.length + 1 }, (_, index) => index);
  for (let row = 1; row <= from.length; row++) {
    let diagonal = previous[0] ?? 0;
    previous[0] = row;
    for (let column = 1; column <= to.length; column++) {
      const above = previous[column] ?? 0;
      const cost = from[row - 1] === to[column - 1] ? 0 : 1;
      previous[column] = Math.min(above + 1, (previous[column - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[to.length] ?? 0;
}
