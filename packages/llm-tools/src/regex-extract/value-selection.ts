/** What to take from the matches: which group, whether all of them, and at most how many. */
export interface ValueSelection {
  readonly group: number | string;
  readonly all: boolean;
  readonly maxMatches: number;
}
