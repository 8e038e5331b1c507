import { createContext, isRetryable, type RouteContext, RoutekitError, RouteStepError } from "@routekit/core";
import type { ErrorHandlerOptions } from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";

/** An error of an application that knows it will fail the same way again. */
class RejectedOrderError extends Error {
  override name = "RejectedOrderError";
  readonly retryable = false;
}

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 1000 });
  context = undefined;
});

/** A route that fails with `error` on every attempt under `options`; resolves to the attempts made and the error. */
async function attemptsFor(
  error: () => Error,
  options: ErrorHandlerOptions,
): Promise<{ attempts: number; error: Error | undefined }> {
  let attempts = 0;
  context = createContext({ logLevel: "off" });
  await context.addRoutes((r) => {
    r.from("direct:in")
      .routeId("orders")
      .errorHandler(options)
      .process(() => {
        attempts++;
        throw error();
      });
  });
  await context.start();
  const exchange = await context.requestExchange("direct:in", { body: "x" });
  return { attempts, error: exchange.error };
}

describe("retryable errors", () => {
  it("says which errors are worth retrying: core's codes, an error's own flag, and a cause's", () => {
    expect(new RoutekitError("EXCHANGE_TIMEOUT", "slow").retryable).toBe(true);
    expect(new RoutekitError("EXCHANGE_INVALID", "bad").retryable).toBe(false);
    expect(new RoutekitError("EXCHANGE_INVALID", "bad", { retryable: true }).retryable).toBe(true);
    expect(isRetryable(new Error("plain"))).toBe(true);
    expect(isRetryable(new RejectedOrderError("no"))).toBe(false);
    expect(isRetryable(new Error("outer", { cause: new RejectedOrderError("inner") }))).toBe(false);
    const step = new RouteStepError("orders", "#1 process", new RejectedOrderError("no"));
    expect(step.retryable).toBe(false);
    expect(new RouteStepError("orders", "#1 process", new Error("io")).retryable).toBe(true);
  });

  it("the default redelivery does not retry an error marked retryable: false, and retries the others", async () => {
    const permanent = await attemptsFor(() => new RejectedOrderError("order 7 is invalid"), {
      maximumRedeliveries: 5,
      redeliveryDelay: 0,
    });
    expect(permanent.attempts).toBe(1);
    expect(permanent.error?.message).toBe("order 7 is invalid");
    await context?.stop();

    const core = await attemptsFor(() => new RoutekitError("EXCHANGE_INVALID", "the body is not an order"), {
      maximumRedeliveries: 5,
      redeliveryDelay: 0,
    });
    expect(core.attempts).toBe(1);
    await context?.stop();

    const transient = await attemptsFor(() => new Error("connection reset"), {
      maximumRedeliveries: 5,
      redeliveryDelay: 0,
    });
    expect(transient.attempts).toBe(6);
  });

  it("an explicit retryWhile still decides, also for an error marked retryable: false", async () => {
    const result = await attemptsFor(() => new RejectedOrderError("order 7 is invalid"), {
      maximumRedeliveries: 3,
      redeliveryDelay: 0,
      retryWhile: () => true,
    });
    expect(result.attempts).toBe(4);
  });
});
