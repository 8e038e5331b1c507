// The task module of the custom-tool example in docs/guide/untrusted-input.md.
// #region task
// word-count-task.ts: what the worker imports; keep its imports small (it loads once per worker)
export function countWord(input: { text: string; word: string }, limits: { maxOutputBytes: number }): string {
  let count = 0;
  for (let at = input.text.indexOf(input.word); at !== -1; at = input.text.indexOf(input.word, at + 1))
    count++;
  const result = JSON.stringify({ word: input.word, count });
  if (Buffer.byteLength(result) > limits.maxOutputBytes)
    throw new Error("word_count: the result is too large");
  return result;
}
// #endregion task
