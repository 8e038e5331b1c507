import { NoConsumerError, RoutekitError } from "@routekit/core";
import { messageOf, printError } from "@routekit/core/internal";
import { describe, expect, it } from "vitest";

describe("printing an error", () => {
  it("prints a routekit error as Name [CODE]: message, and String() and templates print the same", () => {
    const error = new NoConsumerError("direct:orders");
    expect(printError(error)).toBe(
      "NoConsumerError [NO_CONSUMER]: No consumer on endpoint 'direct:orders': no route consumes from it",
    );
    expect(String(error)).toBe(printError(error));
    expect(`${error}`).toBe(printError(error));
    expect(messageOf(error)).toBe(
      "NoConsumerError: No consumer on endpoint 'direct:orders': no route consumes from it",
    );
  });

  it("follows the cause chain, printing each cause's code the way Node prints its own", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    const failed = new TypeError("fetch failed", { cause: refused });
    const error = new RoutekitError("ENDPOINT_START_FAILED", "Endpoint 'http:x' could not start", {
      cause: failed,
    });
    expect(String(error)).toBe(
      "RoutekitError [ENDPOINT_START_FAILED]: Endpoint 'http:x' could not start; caused by TypeError: fetch failed; caused by Error [ECONNREFUSED]: connect ECONNREFUSED 127.0.0.1:1",
    );
    expect(printError(new RoutekitError("QUEUE_FULL", "full", { cause: "a thrown string" }))).toBe(
      "RoutekitError [QUEUE_FULL]: full; caused by a thrown string",
    );
    expect(printError(42)).toBe("42");
    expect(printError(new Error(""))).toBe("Error");
  });

  it("stays bounded: at most 8 causes, a cycle stops the chain, at most 4,000 characters", () => {
    let error: Error = new Error("root");
    for (let index = 0; index < 50; index++)
      error = new RoutekitError("STEP_FAILED", `level ${index}`, { cause: error });
    const printed = printError(error);
    expect(printed.split("; caused by ")).toHaveLength(9);
    expect(printed).not.toContain("root");

    const first = new Error("first");
    const second = new Error("second", { cause: first });
    first.cause = second;
    expect(printError(first)).toBe("Error: first; caused by Error: second");

    const long = printError(new RoutekitError("STEP_FAILED", "x".repeat(100_000)));
    expect(long.length).toBeLessThan(4_100);
    expect(long).toMatch(/… \(100029 chars\)$/);
  });

  it("prints a value whose String() throws without throwing", () => {
    const hostile = {
      toString() {
        throw new Error("no");
      },
    };
    expect(printError(new RoutekitError("STEP_FAILED", "failed", { cause: hostile }))).toBe(
      "RoutekitError [STEP_FAILED]: failed; caused by (unprintable value)",
    );
  });
});
