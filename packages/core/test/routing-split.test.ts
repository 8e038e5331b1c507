import {
  createContext,
  type Exchange,
  groupedBodies,
  type RouteContext,
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
