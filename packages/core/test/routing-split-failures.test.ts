import { createContext, groupedBodies, type RouteContext, RouteStepError } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("split: failures, parallel parts and aborts", () => {
  it("without stopOnError every part runs and the first error fails the exchange, naming the part", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:fail")
        .routeId("splitter")
        .split("${body}", (part) =>
          part
            .process((exchange) => {
              if (exchange.body === "bad" || exchange.body === "worse")
                throw new Error(`cannot take ${String(exchange.body)}`);
            })
            .to("mock:ok"),
        )
        .to("mock:after"),
    );
    await context.start();
    const failure = context.request("direct:fail", ["a", "bad", "b", "worse", "c"]);
    await expect(failure).rejects.toThrow(RouteStepError);
    await expect(failure).rejects.toThrow(
      "Route 'splitter' failed at step #1 split [split.index=1] > #1 process: Error: cannot take bad",
    );
    expect(context.endpoint("mock:ok").receivedBodies).toEqual(["a", "b", "c"]);
    expect(context.endpoint("mock:after").receivedCount).toBe(0);
    const exchange = await context.requestExchange("direct:fail", { body: ["bad"] });
    expect(exchange.error?.message).toBe("cannot take bad");
  });

  it("with stopOnError the first failing part stops the split and closes the source", async () => {
    context = createContext();
    const pulled: number[] = [];
    let closed = false;
    function* numbers() {
      try {
        for (let index = 0; index < 100; index++) {
          pulled.push(index);
          yield index;
        }
      } finally {
        closed = true;
      }
    }
    await context.addRoutes((r) =>
      r
        .from("direct:stop")
        .routeId("stopper")
        .split(
          numbers,
          (part) =>
            part
              .process((exchange) => {
                if (exchange.body === 2) throw new RangeError("two is not allowed");
              })
              .to("mock:parts"),
          { stopOnError: true },
        ),
    );
    await context.start();
    await expect(context.request("direct:stop", null)).rejects.toThrow(
      "Route 'stopper' failed at step #1 split [split.index=2] > #1 process: RangeError: two is not allowed",
    );
    expect(context.endpoint("mock:parts").receivedBodies).toEqual([0, 1]);
    expect(pulled).toEqual([0, 1, 2, 3]);
    expect(closed).toBe(true);
  });

  it("names the sub-route when a part fails in a route it calls", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:outer")
        .routeId("outer")
        .split("${body}", (part) => part.to("direct:inner"), { stopOnError: true });
      r.from("direct:inner")
        .routeId("inner")
        .process(() => {
          throw new TypeError("inner broke");
        });
    });
    await context.start();
    await expect(context.request("direct:outer", [1])).rejects.toThrow(
      "Route 'outer' failed at step #1 split [split.index=0] > route 'inner' #1 process: TypeError: inner broke",
    );
  });

  it("the route's error handling applies to each part: a handled part lets the split go on", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.onException(Error, { handled: true });
      r.from("direct:handled")
        .split(
          "${body}",
          (part) =>
            part.process((exchange) => {
              if (exchange.body === "bad") throw new Error("bad part");
              exchange.body = `ok ${String(exchange.body)}`;
            }),
          { aggregate: groupedBodies() },
        )
        .to("mock:handled");
    });
    await context.start();
    expect(await context.request("direct:handled", ["a", "bad", "b"])).toEqual(["ok a", "bad", "ok b"]);
  });

  it("parallel keeps at most n parts in flight and aggregates in part order", async () => {
    context = createContext();
    let active = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    await context.addRoutes((r) =>
      r.from("direct:parallel").split(
        "${body}",
        (part) =>
          part.process(async (exchange) => {
            active++;
            peak = Math.max(peak, active);
            // Later parts finish first: the aggregate must still follow the part order.
            await new Promise<void>((resolve) => releases.push(resolve));
            active--;
            exchange.body = Number(exchange.body) * 10;
          }),
        { parallel: 3, aggregate: groupedBodies() },
      ),
    );
    await context.start();
    const reply = context.request("direct:parallel", [1, 2, 3, 4, 5, 6, 7]);
    for (let round = 0; round < 20 && (releases.length > 0 || active > 0); round++) {
      await tick();
      expect(active).toBeLessThanOrEqual(3);
      for (const release of releases.splice(0).reverse()) release();
    }
    expect(await reply).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(peak).toBe(3);
  });

  it("parallel pulls from a stream only when a slot is free", async () => {
    context = createContext();
    let pulled = 0;
    let finished = 0;
    let maximumAhead = 0;
    async function* numbers() {
      for (let index = 0; index < 12; index++) {
        pulled++;
        maximumAhead = Math.max(maximumAhead, pulled - finished);
        yield index;
      }
    }
    await context.addRoutes((r) =>
      r.from("direct:stream").split(
        numbers,
        (part) =>
          part.process(async () => {
            await tick();
            await tick();
            finished++;
          }),
        { parallel: 2 },
      ),
    );
    await context.start();
    await context.request("direct:stream", null);
    expect(finished).toBe(12);
    // Two in flight plus the one item of look-ahead.
    expect(maximumAhead).toBeLessThanOrEqual(3);
  });

  it("parallel with stopOnError starts no new part after a failure", async () => {
    context = createContext();
    const started: number[] = [];
    await context.addRoutes((r) =>
      r.from("direct:pstop").split(
        "${body}",
        (part) =>
          part.process(async (exchange) => {
            started.push(Number(exchange.body));
            await tick();
            if (exchange.body === 1) throw new Error("one failed");
          }),
        { parallel: 2, stopOnError: true },
      ),
    );
    await context.start();
    await expect(context.request("direct:pstop", [0, 1, 2, 3, 4, 5])).rejects.toThrow("one failed");
    expect(started.length).toBeLessThan(6);
  });

  it("stops starting parts once the exchange is aborted", async () => {
    context = createContext();
    const controller = new AbortController();
    const started: number[] = [];
    await context.addRoutes((r) =>
      r.from("direct:abort").split("${body}", (part) =>
        part.process(async (exchange) => {
          started.push(Number(exchange.body));
          if (exchange.body === 1) controller.abort(new Error("caller left"));
          await tick();
        }),
      ),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:abort", {
      body: [0, 1, 2, 3],
      signal: controller.signal,
    });
    expect(exchange.error?.message).toBe("caller left");
    expect(started).toEqual([0, 1]);
  });

  it("fails when the aggregate strategy throws or returns no exchange, and when the source throws", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:throws").split("${body}", (part) => part, {
        aggregate: () => {
          throw new Error("strategy broke");
        },
      });
      r.from("direct:returns").split("${body}", (part) => part, { aggregate: () => 5 as never });
      r.from("direct:source").split(
        function* () {
          yield 1;
          throw new Error("source broke");
        },
        (part) => part.to("mock:source"),
      );
    });
    await context.start();
    await expect(context.request("direct:throws", [1])).rejects.toThrow("strategy broke");
    await expect(context.request("direct:returns", [1])).rejects.toThrow(
      "split aggregate strategy must return an exchange (previous or next), found number 5",
    );
    await expect(context.request("direct:source", null)).rejects.toThrow("source broke");
  });
});
