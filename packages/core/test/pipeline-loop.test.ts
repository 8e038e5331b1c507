import { createContext, type Exchange, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

// The step loop of a block: synchronous steps run in one loop under one try; these tests pin what
// it must keep — which step a throw or a left error is blamed on, where a redelivery re-enters,
// and that a stop or a halt ends the loop — for throws and errors at the first, a middle and the
// last step of a block.

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

/** Five synchronous steps that record their position; step `failing` fails as `how` says, once per attempt listed. */
async function fiveSteps(failing: number, how: "throw" | "leave error", failures: number) {
  const ran: number[] = [];
  let failed = 0;
  context = createContext();
  await context.addRoutes((r) => {
    r.onException(Error, { maximumRedeliveries: 3, redeliveryDelay: 0 });
    const route = r.from("direct:in").routeId("loop");
    for (let position = 1; position <= 5; position++) {
      route.process((exchange: Exchange) => {
        ran.push(position);
        if (position !== failing || failed >= failures) return;
        failed++;
        if (how === "throw") throw new Error(`step ${position} threw`);
        exchange.error = new Error(`step ${position} left an error`);
      });
    }
  });
  await context.start();
  return ran;
}

describe("the step loop", () => {
  for (const how of ["throw", "leave error"] as const) {
    for (const failing of [1, 3, 5]) {
      it(`redelivers step ${failing} only, then runs the rest once (${how})`, async () => {
        const ran = await fiveSteps(failing, how, 2);
        const exchange = await context.requestExchange("direct:in", { body: 0 });
        expect(exchange.error).toBeUndefined();
        const before = [1, 2, 3, 4, 5].filter((position) => position < failing);
        const after = [1, 2, 3, 4, 5].filter((position) => position > failing);
        expect(ran).toEqual([...before, failing, failing, failing, ...after]);
      });

      it(`names step ${failing} when it keeps failing (${how})`, async () => {
        const ran = await fiveSteps(failing, how, 10);
        await expect(context.request("direct:in", 0)).rejects.toThrow(
          `Route 'loop' failed at step #${failing} process`,
        );
        expect(ran.filter((position) => position === failing)).toHaveLength(4);
        expect(ran.filter((position) => position > failing)).toEqual([]);
      });
    }
  }

  it("ends the loop at a stop(): later steps and the caller's rest do not run", async () => {
    const ran: string[] = [];
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:inner")
        .process(() => void ran.push("inner 1"))
        .stop()
        .process(() => void ran.push("inner 3"));
      r.from("direct:outer")
        .process(() => void ran.push("outer 1"))
        .to("direct:inner")
        .process(() => void ran.push("outer 3"));
    });
    await context.start();
    const exchange = await context.requestExchange("direct:outer", { body: 0 });
    expect(exchange.error).toBeUndefined();
    expect(ran).toEqual(["outer 1", "inner 1"]);
  });

  it("continues after an asynchronous step in the same loop, and blames a later synchronous throw on its own step", async () => {
    const ran: number[] = [];
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .routeId("mixed")
        .process(() => void ran.push(1))
        .process(async () => {
          await new Promise((resolve) => setImmediate(resolve));
          ran.push(2);
        })
        .process(() => void ran.push(3))
        .process(() => {
          ran.push(4);
          throw new Error("four");
        })
        .process(() => void ran.push(5)),
    );
    await context.start();
    await expect(context.request("direct:in", 0)).rejects.toThrow("Route 'mixed' failed at step #4 process");
    expect(ran).toEqual([1, 2, 3, 4]);
  });
});
