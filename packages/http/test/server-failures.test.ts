import { EXCEPTION_CAUGHT } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { type Served, serve } from "./support/serve.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.context.stop({ timeoutMs: 2_000 });
  served = undefined;
});

describe("http server failures", () => {
  it("answers 500 with the error's message and the exchange id with errorDetail message, never a stack trace", async () => {
    served = await serve(
      (r) => {
        r.from("http:/fail")
          .routeId("failing")
          .process(async () => {
            throw new TypeError("the order has no lines");
          });
      },
      { errorDetail: "message" },
    );
    const response = await fetch(`${served.url}/fail`);
    expect(response.status).toBe(500);
    const text = await response.text();
    const body = JSON.parse(text) as { error: string; exchangeId: string };
    expect(body.error).toBe("the order has no lines");
    expect(typeof body.exchangeId).toBe("string");
    expect(text).not.toMatch(/\bat .*\(|\.ts:\d+/);
  });

  it("lets a route answer its own errors with a 4xx through onException", async () => {
    class ValidationError extends Error {}
    served = await serve((r) => {
      r.onException(ValidationError, {
        handled: true,
        step: (route) =>
          route
            .setHeader("http.status", "422")
            .setBody((exchange) => ({ error: (exchange.properties[EXCEPTION_CAUGHT] as Error).message })),
      });
      r.from("http:/orders?httpMethodRestrict=POST").process((exchange) => {
        if (typeof (exchange.body as { qty?: unknown }).qty !== "number")
          throw new ValidationError("qty must be a number");
      });
    });
    const response = await fetch(`${served.url}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ qty: "two" }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: "qty must be a number" });
  });

  it("says only 'Internal Server Error' with errorDetail none", async () => {
    served = await serve(
      (r) => {
        r.from("http:/fail").process(() => {
          throw new Error("password=hunter2");
        });
      },
      { errorDetail: "none" },
    );
    const response = await fetch(`${served.url}/fail`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: "Internal Server Error" });
    expect(text).not.toContain("hunter2");
  });

  it("answers the configured status on timeout and aborts the route through its signal", async () => {
    let signal: AbortSignal | undefined;
    let abortedReason: unknown;
    served = await serve(
      (r) => {
        r.from("http:/slow").process(
          (exchange) =>
            new Promise<void>((resolve) => {
              signal = exchange.signal;
              exchange.signal.addEventListener("abort", () => {
                abortedReason = exchange.signal.reason;
                resolve();
              });
            }),
        );
      },
      { requestTimeoutMs: 200, timeoutStatus: 504 },
    );
    const response = await fetch(`${served.url}/slow`);
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ error: "The request timed out after 200 ms" });
    expect(signal?.aborted).toBe(true);
    expect((abortedReason as DOMException).name).toBe("TimeoutError");
  });

  it("answers 503 on timeout by default", async () => {
    served = await serve(
      (r) => {
        r.from("http:/slow").process(
          (exchange) =>
            new Promise<void>((resolve) => exchange.signal.addEventListener("abort", () => resolve())),
        );
      },
      { requestTimeoutMs: 100 },
    );
    const response = await fetch(`${served.url}/slow`);
    expect(response.status).toBe(503);
  });

  it("aborts the route's signal when the client goes away", async () => {
    let aborted: (reason: unknown) => void = () => undefined;
    const abortSeen = new Promise<unknown>((resolve) => {
      aborted = resolve;
    });
    let started: () => void = () => undefined;
    const routeStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    served = await serve((r) => {
      r.from("http:/slow").process(
        (exchange) =>
          new Promise<void>((resolve) => {
            started();
            exchange.signal.addEventListener("abort", () => {
              aborted(exchange.signal.reason);
              resolve();
            });
          }),
      );
    });
    const client = new AbortController();
    const pending = fetch(`${served.url}/slow`, { signal: client.signal }).catch((error: unknown) => error);
    await routeStarted;
    client.abort();
    await pending;
    const reason = await abortSeen;
    expect((reason as Error).message).toBe("The client closed the connection");
  });
});
