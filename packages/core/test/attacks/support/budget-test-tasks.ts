// Task functions the budget tests run in worker threads (a module file, as every task is).

/** Returns its input's text, upper-cased. */
export function shout(input: { text: string }): string {
  return input.text.toUpperCase();
}

/** Never returns: a loop that only a terminated worker ends. */
export function spin(): never {
  for (;;) {
    // busy
  }
}

/** Keeps allocating until the heap limit stops the worker. */
export function exhaustMemory(): number {
  const hoard: string[][] = [];
  for (;;) hoard.push(new Array(100_000).fill("x".repeat(16)));
}

/** Returns `bytes` bytes of text. */
export function produce(input: { bytes: number }): string {
  return "y".repeat(input.bytes);
}

/** Throws an error with a code and a key, as tool errors do. */
export function refuse(input: { key: string }): never {
  throw Object.assign(new Error(`no ${input.key}`), { code: "TOOL_INPUT_INVALID", key: input.key });
}

/** Waits `ms` milliseconds, then answers. */
export async function sleep(input: { ms: number }): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, input.ms));
  return "slept";
}
