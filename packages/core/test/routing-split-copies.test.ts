import { createContext, type Exchange, type RouteContext, SPLIT_INDEX } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

/** What a part saw of its headers and properties before it changed them. */
interface Seen {
  body: unknown;
  headers: Record<string, unknown>;
  note: unknown;
  index: unknown;
}

/**
 * Changes everything a part can change of its message: adds, overwrites and deletes headers and
 * properties, and sets the pattern. Records what the part saw first, so a change that leaked from
 * an earlier part shows.
 */
const changeEverything = (seen: Seen[]) => (exchange: Exchange) => {
  seen.push({
    body: exchange.body,
    headers: { ...exchange.headers },
    note: exchange.properties.note,
    index: exchange.properties[SPLIT_INDEX],
  });
  exchange.headers.added = exchange.body;
  exchange.headers.shared = `changed by ${String(exchange.body)}`;
  delete exchange.headers.gone;
  exchange.properties.note = `part ${String(exchange.body)}`;
  exchange.properties.added = true;
  exchange.pattern = "InOnly";
};

describe("split parts and multicast copies are copies", () => {
  it("a part's header and property changes reach neither the original nor the other parts (sequential and parallel)", async () => {
    context = createContext();
    const seen: Seen[] = [];
    await context.addRoutes((r) => {
      for (const [name, parallel] of [
        ["sequential", false],
        ["parallel", 2],
      ] as const) {
        r.from(`direct:${name}`)
          .setProperty("note", () => "original")
          .split("${body}", (part) => part.process(changeEverything(seen)), { parallel })
          .process((exchange) => {
            exchange.properties.after = { ...exchange.properties };
          });
      }
    });
    await context.start();
    for (const uri of ["direct:sequential", "direct:parallel"]) {
      seen.length = 0;
      const original = await context.requestExchange(uri, {
        body: ["a", "b", "c"],
        headers: { shared: "original", gone: "still here" },
      });
      expect(original.error).toBeUndefined();
      expect(original.headers).toEqual({ shared: "original", gone: "still here" });
      expect(original.properties.after).toEqual({ note: "original" });
      expect(original.pattern).toBe("InOut");
      expect(seen).toEqual(
        ["a", "b", "c"].map((body, index) => ({
          body,
          headers: { shared: "original", gone: "still here" },
          note: "original",
          index,
        })),
      );
    }
  });

  it("a part that reads its headers before writing them, or replaces them, changes only its own", async () => {
    context = createContext();
    const seen: unknown[] = [];
    await context.addRoutes((r) =>
      r.from("direct:in").split("${body}", (part) =>
        part.process((exchange) => {
          const headers = exchange.headers;
          seen.push({ ...headers });
          if (exchange.body === 1) headers.first = "yes";
          else exchange.headers = { replaced: exchange.body };
          exchange.headers.late = exchange.body;
        }),
      ),
    );
    await context.start();
    const original = await context.requestExchange("direct:in", { body: [1, 2, 3], headers: { h: 0 } });
    expect(original.headers).toEqual({ h: 0 });
    expect(seen).toEqual([{ h: 0 }, { h: 0 }, { h: 0 }]);
  });

  it("copies keys exactly: symbol keys are copied, an own __proto__ key stays a key", async () => {
    context = createContext();
    const marker = Symbol("marker");
    const seen: unknown[] = [];
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .process((exchange) => {
          exchange.properties[marker as unknown as string] = "kept";
        })
        .split("${body}", (part) =>
          part.process((exchange) => {
            const headers = exchange.headers;
            seen.push({
              ownProto: Object.hasOwn(headers, "__proto__"),
              plainPrototype: Object.getPrototypeOf(headers) === Object.prototype,
              inherited: (headers as { injected?: unknown }).injected,
              keys: Object.keys(headers),
              symbol: exchange.properties[marker as unknown as string],
            });
            headers.added = 1;
          }),
        ),
    );
    await context.start();
    const headers = JSON.parse('{"__proto__": {"injected": true}, "plain": 1}') as Record<string, unknown>;
    const original = await context.requestExchange("direct:in", { body: ["a", "b"], headers });
    expect(original.error).toBeUndefined();
    const expected = {
      ownProto: true,
      plainPrototype: true,
      inherited: undefined,
      keys: ["__proto__", "plain"],
      symbol: "kept",
    };
    expect(seen).toEqual([expected, expected]);
    expect(Object.keys(original.headers)).toEqual(["__proto__", "plain"]);
  });

  it("a multicast copy's changes reach neither the original nor the next copy", async () => {
    context = createContext();
    const seen: Seen[] = [];
    await context.addRoutes((r) => {
      // The last reply replaces the original's body and headers: the last endpoint changes nothing.
      r.from("direct:in").multicast(["direct:a", "direct:b", "direct:last"]);
      r.from("direct:a").process(changeEverything(seen));
      r.from("direct:b").process(changeEverything(seen));
      r.from("direct:last").setBody("${body}");
    });
    await context.start();
    const original = await context.requestExchange("direct:in", {
      body: "m",
      headers: { shared: "original", gone: "still here" },
    });
    expect(original.error).toBeUndefined();
    expect(original.headers).toEqual({ shared: "original", gone: "still here" });
    expect(original.pattern).toBe("InOut");
    expect(seen.map((copy) => copy.headers)).toEqual([
      { shared: "original", gone: "still here" },
      { shared: "original", gone: "still here" },
    ]);
    expect(seen.map((copy) => copy.note)).toEqual([undefined, undefined]);
    expect(original.properties).toEqual({});
  });
});

describe("split parts kept after the split", () => {
  it("a part read only after the split copies the original as its parts saw it, not the later changes", async () => {
    context = createContext();
    const kept: Exchange[] = [];
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .setProperty("before", () => 1)
        .split("${body}", (part) => part.process((exchange) => void kept.push(exchange)))
        .setHeader("late", () => "after the split")
        .setProperty("lateProperty", () => "after the split"),
    );
    await context.start();
    const original = await context.requestExchange("direct:in", { body: ["a", "b"], headers: { h: 0 } });
    expect(original.headers).toEqual({ h: 0, late: "after the split" });
    expect(kept.map((part) => part.headers)).toEqual([{ h: 0 }, { h: 0 }]);
    expect(kept.map((part) => part.properties.lateProperty)).toEqual([undefined, undefined]);
    expect(kept.map((part) => [part.properties.before, part.properties[SPLIT_INDEX]])).toEqual([
      [1, 0],
      [1, 1],
    ]);
  });
});
