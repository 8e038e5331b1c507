/** How a call bounded by a deadline ended. */
export type DeadlineOutcome<TResult> =
  | { status: "done"; value: TResult }
  | { status: "failed"; error: unknown }
  | { status: "timed-out" };

/**
 * Runs `start` with a signal that fires at `timeoutMs` or when `parent` fires, and settles at that
 * moment even if the call ignores its signal. A parent abort rejects with the parent's reason;
 * everything else resolves to an outcome. Timers and listeners are removed when it settles.
 */
export function callWithDeadline<TResult>(
  start: (signal: AbortSignal | undefined) => Promise<TResult>,
  parent: AbortSignal | undefined,
  timeoutMs: number | undefined,
): Promise<DeadlineOutcome<TResult>> {
  if (parent?.aborted) return Promise.reject(parent.reason);
  if (parent === undefined && timeoutMs === undefined) {
    return invoke(start, undefined).then(
      (value) => ({ status: "done", value }),
      (error: unknown) => ({ status: "failed", error }),
    );
  }
  return new Promise((resolve, reject) => {
    const controller = timeoutMs === undefined ? undefined : new AbortController();
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const cleanUp = () => {
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    };
    const onParentAbort = () => {
      if (settled) return;
      cleanUp();
      reject(parent?.reason);
      controller?.abort(parent?.reason);
    };
    parent?.addEventListener("abort", onParentAbort, { once: true });
    if (controller !== undefined) {
      timer = setTimeout(() => {
        if (settled) return;
        cleanUp();
        resolve({ status: "timed-out" });
        controller.abort(new DOMException(`deadline of ${timeoutMs} ms passed`, "TimeoutError"));
      }, timeoutMs);
    }
    invoke(start, controller?.signal ?? parent).then(
      (value) => {
        if (settled) return;
        cleanUp();
        resolve({ status: "done", value });
      },
      (error: unknown) => {
        if (settled) return;
        cleanUp();
        resolve({ status: "failed", error });
      },
    );
  });
}

/** Calls `start`, turning a synchronous throw into a rejection. */
function invoke<TResult>(
  start: (signal: AbortSignal | undefined) => Promise<TResult>,
  signal: AbortSignal | undefined,
): Promise<TResult> {
  try {
    return Promise.resolve(start(signal));
  } catch (error) {
    return Promise.reject(error);
  }
}
