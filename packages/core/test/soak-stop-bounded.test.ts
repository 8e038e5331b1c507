import { createContext, defineComponent, RoutekitError } from "@routekit/core";
import { STOP_GRACE_MS, type StopBudget } from "@routekit/core/internal";
import { settlesWithin } from "@routekit/test-support";
import { afterEach, describe, expect, it } from "vitest";

// stop({ timeoutMs }) settles within timeoutMs plus STOP_GRACE_MS whatever plugins and
// components do: a hanging stop hook or consumer is left behind and named.

const releases: Array<() => void> = [];
afterEach(async () => {
  for (const release of releases.splice(0)) release();
});

/** A promise that settles only when the test ends (never on its own). */
function forever(): Promise<void> {
  return new Promise((resolve) => releases.push(resolve));
}

/** A component whose consumers never finish stopping. */
const stubbornComponent = defineComponent({
  scheme: "stubborn",
  options: {},
  createEndpoint(address) {
    return {
      uri: address.uri,
      send() {},
      createConsumer() {
        return { start() {}, stop: () => forever() };
      },
    };
  },
});

describe("a bounded stop", () => {
  it("gives plugin stop hooks the time left and a signal, and does not wait past it", async () => {
    const budgets: StopBudget[] = [];
    let signalled = 0;
    const target = createContext({ logLevel: "off" });
    target.use({
      name: "hangs-forever",
      install(installed) {
        installed.addLifecycle({
          stop(budget) {
            budgets.push(budget);
            budget.signal.addEventListener("abort", () => signalled++, { once: true });
            return forever();
          },
        });
      },
    });
    target.addComponent(stubbornComponent);
    await target.addRoutes((r) => r.from("stubborn:in").routeId("stubborn-route").to("mock:out"));
    await target.start();
    const timeoutMs = 300;
    const stopping = target.stop({ timeoutMs });
    expect(await settlesWithin(stopping, timeoutMs + STOP_GRACE_MS + 1000)).toBe("settled");
    const error = await stopping.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RoutekitError);
    expect((error as RoutekitError).code).toBe("SHUTDOWN_TIMEOUT");
    expect((error as Error).message).toMatch(/the consumer of route 'stubborn-route' did not stop/);
    expect((error as Error).message).toMatch(/plugin 'hangs-forever' did not finish/);
    expect(budgets).toHaveLength(1);
    expect(budgets[0]?.timeoutMs).toBeGreaterThan(0);
    expect(budgets[0]?.timeoutMs).toBeLessThanOrEqual(timeoutMs + STOP_GRACE_MS);
    expect(signalled).toBe(1);
    expect(target.state).toBe("stopped");
  });

  it("reports a stop hook that throws, after running the others", async () => {
    const stopped: string[] = [];
    const target = createContext({ logLevel: "off" });
    for (const name of ["first", "broken", "last"]) {
      target.use({
        name,
        install(installed) {
          installed.addLifecycle({
            stop() {
              stopped.push(name);
              if (name === "broken") throw new Error("cannot close");
            },
          });
        },
      });
    }
    await target.start();
    await expect(target.stop({ timeoutMs: 1000 })).rejects.toThrow(/plugin 'broken' failed: cannot close/);
    expect(stopped).toEqual(["last", "broken", "first"]);
  });
});
