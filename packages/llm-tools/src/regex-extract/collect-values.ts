/** What to take from the matches: which group, whether all of them, and at most how many. */
export interface ValueSelection {
  readonly group: number | string;
  readonly all: boolean;
  readonly maxMatches: number;
}

/**
 * Walks matches in order and keeps the selected group's text from each match where that group took
 * part: only the first such value unless `all`, and at most `maxMatches`. Returns undefined when
 * `stopAt` (a performance.now() time) passes before the walk ends, so the caller can move the work
 * elsewhere. The worker script repeats this logic in plain JavaScript.
 */
export function collectValues(
  matches: Iterable<RegExpMatchArray>,
  selection: ValueSelection,
  stopAt = Number.POSITIVE_INFINITY,
): string[] | undefined {
  const values: string[] = [];
  for (const match of matches) {
    const value =
      typeof selection.group === "number" ? match[selection.group] : match.groups?.[selection.group];
    if (value !== undefined) {
      values.push(value);
      if (!selection.all || values.length >= selection.maxMatches) return values;
    }
    if (performance.now() > stopAt) return undefined;
  }
  return values;
}
