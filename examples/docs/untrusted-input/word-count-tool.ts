// The tool of the custom-tool example in docs/guide/untrusted-input.md.
// #region tool
// word-count-tool.ts
import { defineBudgetTask, sharedBudget } from "@routekit/core";
import type { countWord } from "./word-count-task.js";

const COUNT_WORD = defineBudgetTask<Parameters<typeof countWord>[0], string>(
  new URL("./word-count-task.js", import.meta.url),
  "countWord",
);

/** Refuses what the engine does not need, on this thread, with a clear error. */
function checkWord(word: string): void {
  if (!/^\p{L}{1,40}$/u.test(word)) {
    throw new Error(
      `word_count: key 'word' must be 1 to 40 letters (found ${JSON.stringify(word.slice(0, 40))})`,
    );
  }
}

export async function wordCount(
  input: { text: string; word: string },
  signal?: AbortSignal,
): Promise<string> {
  checkWord(input.word);
  return sharedBudget().run(COUNT_WORD, input, { timeoutMs: 1000, maxOutputBytes: 64 * 1024, signal });
}
// #endregion tool
