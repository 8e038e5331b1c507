/** Polls `condition` until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves with "settled" when `work` settles (fulfilled or rejected) first, "hung" when `ms` passes first. */
export function settlesWithin(work: Promise<unknown>, ms: number): Promise<"settled" | "hung"> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.then(
      () => "settled" as const,
      () => "settled" as const,
    ),
    new Promise<"hung">((resolve) => {
      timer = setTimeout(() => resolve("hung"), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
