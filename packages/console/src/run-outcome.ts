/** How a recorded exchange, step or agent run stands. */
export type RunStatus = "running" | "completed" | "failed" | "cancelled";

/** Has a `result` promise: the streaming llm step's body (`llm(...).stream()`). */
export function streamResult(body: unknown): PromiseLike<unknown> | undefined {
  if (typeof body !== "object" || body === null || !("result" in body)) return undefined;
  const result = (body as { result: unknown }).result;
  return typeof result === "object" && result !== null && "then" in result
    ? (result as PromiseLike<unknown>)
    : undefined;
}

function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === "TimeoutError";
}

/**
 * How something that ended with `error` ended: `completed` without one; `cancelled` when its
 * caller stopped it — a stream whose reader stopped (an `AbortError`), or an exchange whose
 * signal fired for another reason than its deadline (the client closed the connection, the
 * context stopped); `failed` otherwise, a deadline that passed included.
 */
export function outcomeOf(error: unknown, signal?: AbortSignal): Exclude<RunStatus, "running"> {
  if (error === undefined) return "completed";
  if (error instanceof DOMException && error.name === "AbortError") return "cancelled";
  if (signal?.aborted === true && !isTimeout(signal.reason)) return "cancelled";
  return "failed";
}
