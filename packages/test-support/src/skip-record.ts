import { appendFileSync } from "node:fs";
import { expect } from "vitest";

/** The environment variable naming the file where test workers record what they skipped. */
export const SKIP_RECORD_VARIABLE = "ROUTEKIT_SKIP_RECORD";

/** One line of the record: a test file skipped tests because `missing` was not there. */
export interface SkipRecord {
  readonly testFile: string;
  readonly missing: string;
}

/**
 * Notes that the running test file skips its tests because `missing` is not there, for the
 * skip reporter to count at the end of the run. Outside a run with the reporter, nothing is noted.
 */
export function recordSkip(missing: string): void {
  const file = process.env[SKIP_RECORD_VARIABLE];
  const testFile = expect.getState().testPath;
  if (file === undefined || file === "" || testFile === undefined) return;
  const record: SkipRecord = { testFile, missing };
  try {
    appendFileSync(file, `${JSON.stringify(record)}\n`);
  } catch {
    // the reporter's run is over (its file is gone): nothing is left to count for
  }
}
