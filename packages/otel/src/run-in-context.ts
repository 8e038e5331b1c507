import { type Context, context } from "@opentelemetry/api";
import type { Exchange, Processor } from "@routekit/core";

/**
 * Runs `next` with `active` as the current OpenTelemetry context and calls `settle` once it is
 * done — at once when it completed synchronously (no promise is made), else when its promise
 * settles — with what it threw or rejected with, if anything. The failure still propagates.
 */
export function runInContext(
  active: Context,
  next: Processor,
  exchange: Exchange,
  settle: (thrown: unknown) => void,
): void | Promise<void> {
  let result: void | Promise<void>;
  try {
    result = context.with(active, next, undefined, exchange);
  } catch (error) {
    settle(error);
    throw error;
  }
  if (result === undefined) {
    settle(undefined);
    return;
  }
  return result.then(
    () => settle(undefined),
    (error: unknown) => {
      settle(error);
      throw error;
    },
  );
}

/** Runs `next` and calls `settle` when it is done, like `runInContext` without changing the context. */
export function runThen(
  next: Processor,
  exchange: Exchange,
  settle: (thrown: unknown) => void,
): void | Promise<void> {
  let result: void | Promise<void>;
  try {
    result = next(exchange);
  } catch (error) {
    settle(error);
    throw error;
  }
  if (result === undefined) {
    settle(undefined);
    return;
  }
  return result.then(
    () => settle(undefined),
    (error: unknown) => {
      settle(error);
      throw error;
    },
  );
}
