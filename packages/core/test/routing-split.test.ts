import {
  createContext,
  type Exchange,
  groupedBodies,
  type RouteContext,
  RouteStepError,
  SPLIT_COMPLETE,
  SPLIT_INDEX,
  SPLIT_SIZE,
} from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

const partInfo = (exchange: Exchange) => ({
  body: exchange.body,
  index: exchange.properties[SPLIT_INDEX],
  size: exchange.properties[SPLIT_SIZE],
  complete: exchange.properties[SPLIT_COMPLETE],
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("split", () => {
  it("runs each array item on a copy; without aggregate the original continues unchanged", async () => {
    context = createContext();
    const parts: unknown[] = [];
    await context.addRoutes((r) =>
      r
        .from<{ items: string[] }>("direct:orders")
        .split("${body.items}", (part) =>
          part
            .process((exchange) => {
              parts.push(partInfo(exchange));
            })
            .setHeader("touched", () => true)
            .setBody(() => "changed"),
        )
        .to("mock:after"),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:orders", {
      body: { items: ["a", "b", "c"] },
      headers: { h: 1 },
    });
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toEqual({ items: ["a", "b", "c"] });
    expect(exchange.headers).toEqual({ h: 1 });
    expect(exchange.properties[SPLIT_INDEX]).toBeUndefined();
    expect(parts).toEqual([
      { body: "a", index: 0, size: 3, complete: false },
      { body: "b", index: 1, size: 3, complete: false },
      { body: "c", index: 2, size: 3, complete: true },
    ]);
    expect(context.endpoint("mock:after").receivedCount).toBe(1);
  });

  it("with aggregate, the aggregate's body and headers replace the original's, in part order", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from<string>("direct:lines")
        .split(
          (exchange) => exchange.body.split("\n"),
          (part) => part.setBody((exchange) => exchange.body.toUpperCase()).setHeader("last", "${body}"),
          { aggregate: groupedBodies<string>() },
        )
        .to("mock:joined"),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:lines", {
      body: "a\nb\nc",
      headers: { keep: "yes" },
    });
    expect(exchange.body).toEqual(["A", "B", "C"]);
    // The first part's exchange is the aggregate: its headers continue.
    expect(exchange.headers).toEqual({ keep: "yes", last: "A" });
  });

  it("an empty split runs nothing and the original continues", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:empty")
        .split("${body}", (part) => part.to("mock:part"), { aggregate: groupedBodies() })
        .to("mock:after"),
    );
    await context.start();
    expect(await context.request("direct:empty", [])).toEqual([]);
    expect(await context.request("direct:empty", null)).toBeNull();
    expect(await context.request("direct:empty", undefined)).toBeUndefined();
    expect(context.endpoint("mock:part").receivedCount).toBe(0);
    expect(context.endpoint("mock:after").receivedCount).toBe(3);
  });

  it("a string is one part unless the expression splits it; a Set and a Map stream like iterables", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:s").split("${body}", (part) => part.to("mock:s")));
    await context.start();
    await context.request("direct:s", "a,b\nc");
    await context.request("direct:s", new Set(["x", "y"]));
    await context.request("direct:s", new Map([["k", 1]]));
    const mock = context.endpoint("mock:s");
    expect(mock.receivedBodies).toEqual(["a,b\nc", "x", "y", ["k", 1]]);
    expect(mock.received.map((exchange) => exchange.properties[SPLIT_SIZE])).toEqual([1, undefined, 2, 1]);
  });

  it("streams a generator: an item is pulled only after the part two before it finished", async () => {
    context = createContext();
    const log: string[] = [];
    function* items() {
      try {
        for (let index = 0; index < 4; index++) {
          log.push(`pull ${index}`);
          yield index;
        }
      } finally {
        log.push("closed");
      }
    }
    const seen: unknown[] = [];
    await context.addRoutes((r) =>
      r.from("direct:gen").split(items, (part) =>
        part.process((exchange) => {
          seen.push(partInfo(exchange));
          log.push(`part ${String(exchange.body)} done`);
        }),
      ),
    );
    await context.start();
    await context.request("direct:gen", "x");
    // One item of look-ahead (to know which part is the last), never more.
    expect(log).toEqual([
      "pull 0",
      "pull 1",
      "part 0 done",
      "pull 2",
      "part 1 done",
      "pull 3",
      "part 2 done",
      "closed",
      "part 3 done",
    ]);
    expect(seen).toEqual([
      { body: 0, index: 0, size: undefined, complete: false },
      { body: 1, index: 1, size: undefined, complete: false },
      { body: 2, index: 2, size: undefined, complete: false },
      { body: 3, index: 3, size: 4, complete: true },
    ]);
  });

  it("streams an async generator through asynchronous parts", async () => {
    context = createContext();
    const log: string[] = [];
    async function* items() {
      for (let index = 0; index < 3; index++) {
        await tick();
        log.push(`pull ${index}`);
        yield `item-${index}`;
      }
    }
    await context.addRoutes((r) =>
      r.from("direct:async").split(
        items,
        (part) =>
          part.process(async (exchange) => {
            await tick();
            log.push(`part ${String(exchange.properties[SPLIT_INDEX])} done`);
          }),
        { aggregate: groupedBodies() },
      ),
    );
    await context.start();
    expect(await context.request("direct:async", "x")).toEqual(["item-0", "item-1", "item-2"]);
    expect(log).toEqual(["pull 0", "pull 1", "part 0 done", "pull 2", "part 1 done", "part 2 done"]);
  });

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

  it("stays synchronous (no promise) over an array with synchronous parts", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:sync")
        .split("${body}", (part) => part.setBody("${body}!"), { aggregate: groupedBodies() }),
    );
    await context.start();
    const exchange = context.createExchange({ body: ["a", "b"], pattern: "InOut" });
    expect(context.endpoint("direct:sync").send(exchange)).toBeUndefined();
    expect(exchange.body).toEqual(["a!", "b!"]);
  });

  it("fails clearly when the expression yields something that is not a collection", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:odd")
        .routeId("odd")
        .split("${body}", (part) => part.to("mock:x")),
    );
    await context.start();
    await expect(context.request("direct:odd", 42)).rejects.toThrow(
      "Route 'odd' step #1 split: the split expression yielded number 42; expected an array, an iterable or an async iterable (null or undefined: no parts)",
    );
    await expect(context.request("direct:odd", { a: 1 })).rejects.toThrow(
      "the split expression yielded an object",
    );
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

  it("awaits an expression that returns a promise", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r.from("direct:promised").split(
        async () => ["x", "y"],
        (part) => part.to("mock:promised"),
        { aggregate: groupedBodies() },
      ),
    );
    await context.start();
    expect(await context.request("direct:promised", null)).toEqual(["x", "y"]);
  });
});
