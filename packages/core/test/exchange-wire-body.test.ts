import { createContext, type Exchange, type RouteContext } from "@routekit/core";
import { copyExchange, type WireBody, wireBodyOf } from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop({ timeoutMs: 1000 });
});

/** A JSON wire body whose decodes are counted; invalid JSON throws as a consumer's decoder would. */
function jsonWire(text: string, decodes: { count: number }): WireBody {
  return {
    content: new TextEncoder().encode(text),
    contentType: "application/json",
    decode: (content, contentType) => {
      decodes.count++;
      const source = new TextDecoder().decode(content);
      try {
        return JSON.parse(source);
      } catch {
        throw new SyntaxError(`a ${contentType} body that is not JSON: ${source}`);
      }
    },
  };
}

/** An exchange as a consumer makes it: its body left in wire form. */
function delivered(wire: WireBody, pattern: "InOnly" | "InOut" = "InOut"): Exchange {
  return context.createExchange({ wire, pattern });
}

async function started(routes: Parameters<RouteContext["addRoutes"]>[0]): Promise<void> {
  context = createContext();
  await context.addRoutes(routes);
  await context.start();
}

describe("a body left in its wire form (createExchange({ wire }))", () => {
  it("is decoded once, by its first read, and its wire form is gone from then on", async () => {
    const decodes = { count: 0 };
    const seen: unknown[] = [];
    await started((r) =>
      r
        .from("direct:in")
        .process((exchange) => void seen.push(wireBodyOf(exchange) !== undefined))
        .process((exchange) => void seen.push(exchange.body, exchange.body))
        .process((exchange) => void seen.push(wireBodyOf(exchange))),
    );
    const wire = jsonWire('{"order": 7}', decodes);
    const exchange = delivered(wire);
    expect(wireBodyOf(exchange)).toBe(wire);
    await context.endpoint("direct:in").send(exchange);
    expect(seen).toEqual([true, { order: 7 }, { order: 7 }, undefined]);
    expect(decodes.count).toBe(1);
    expect(exchange.error).toBeUndefined();
  });

  it("is never decoded by a route that does not read it, and stays in wire form for the next producer", async () => {
    const decodes = { count: 0 };
    const forwarded: Array<WireBody | undefined> = [];
    await started((r) => {
      r.from("direct:in").setHeader("stage", "routed").to("seda:next");
      r.from("seda:next").process((exchange) => void forwarded.push(wireBodyOf(exchange)));
    });
    const wire = jsonWire('{"order": 8}', decodes);
    await context.endpoint("direct:in").send(delivered(wire, "InOnly"));
    await expect.poll(() => forwarded.length).toBe(1);
    expect(forwarded[0]).toBe(wire);
    expect(decodes.count).toBe(0);
  });

  it("is replaced by a write, which drops the wire form without decoding it", async () => {
    const decodes = { count: 0 };
    await started((r) => r.from("direct:in").setBody("replaced"));
    const exchange = delivered(jsonWire("{not json", decodes));
    await context.endpoint("direct:in").send(exchange);
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toBe("replaced");
    expect(wireBodyOf(exchange)).toBeUndefined();
    expect(decodes.count).toBe(0);
  });

  it("that cannot be decoded fails the step reading it with the decoder's error, and keeps the bytes", async () => {
    const decodes = { count: 0 };
    const after: unknown[] = [];
    await started((r) =>
      r
        .from("direct:in")
        .routeId("orders")
        .process((exchange) => void after.push(exchange.body), "read")
        .process(() => void after.push("not reached")),
    );
    const wire = jsonWire("{oops", decodes);
    const exchange = delivered(wire);
    await context.endpoint("direct:in").send(exchange);
    expect(exchange.error).toBeInstanceOf(SyntaxError);
    expect(exchange.error?.message).toBe("a application/json body that is not JSON: {oops");
    expect(after).toEqual([]);
    // The wire form stays, for the consumer to dead-letter the bytes as they came, and the
    // route goes on serving other messages.
    expect(wireBodyOf(exchange)).toBe(wire);
    await expect(context.request("direct:in", "fine")).resolves.toBe("fine");
    expect(after).toEqual(["fine", "not reached"]);
  });

  it("is shared undecoded by copies (copyExchange, multicast) and each copy decodes it on its own read", async () => {
    const decodes = { count: 0 };
    const copies: unknown[] = [];
    await started((r) => {
      r.from("direct:in").multicast(["direct:a", "direct:b"]);
      r.from("direct:a").process((exchange) => void copies.push(wireBodyOf(exchange) !== undefined));
      r.from("direct:b").process((exchange) => void copies.push(exchange.body));
    });
    const wire = jsonWire('{"copy": true}', decodes);
    const exchange = delivered(wire);
    const copy = copyExchange(exchange);
    expect(wireBodyOf(copy)).toBe(wire);
    expect(copyExchange(exchange, "own body").body).toBe("own body");
    await context.endpoint("direct:in").send(exchange);
    expect(copies).toEqual([true, { copy: true }]);
    expect(decodes.count).toBe(1);
  });

  it("is restored undecoded for an error handler that uses the original message", async () => {
    const decodes = { count: 0 };
    const dead: Array<WireBody | undefined> = [];
    await started((r) => {
      r.errorHandler({ deadLetterUri: "direct:dead", useOriginalMessage: true });
      r.from("direct:in")
        .setBody("changed")
        .process(() => {
          throw new RangeError("stock service down");
        });
      r.from("direct:dead").process((exchange) => void dead.push(wireBodyOf(exchange)));
    });
    const wire = jsonWire('{"original": true}', decodes);
    const exchange = delivered(wire);
    await context.endpoint("direct:in").send(exchange);
    expect(exchange.error).toBeUndefined();
    expect(dead).toEqual([wire]);
    expect(decodes.count).toBe(0);
    expect(exchange.body).toEqual({ original: true });
    expect(decodes.count).toBe(1);
  });

  it("is refused with a clear error when given with a body, or when it is not bytes and a decoder", async () => {
    await started((r) => r.from("direct:in").log("in"));
    const wire = jsonWire("{}", { count: 0 });
    expect(() => context.createExchange({ body: 1, wire })).toThrow(
      "createExchange: give 'body' or 'wire', not both (found a body of type number and a wire form)",
    );
    expect(() => context.createExchange({ wire: { ...wire, content: "{}" } as never })).toThrow(
      /createExchange: option 'wire' expects \{ content: Uint8Array, contentType, decode: function \} \(found /,
    );
    expect(() => context.createExchange({ wire: { ...wire, decode: undefined } as never })).toThrow(
      /option 'wire' expects/,
    );
  });

  it("leaves every other exchange's body a plain property", async () => {
    await started((r) => r.from("direct:in").log("in"));
    const plain = context.createExchange({ body: 5 });
    expect(Object.getOwnPropertyDescriptor(plain, "body")).toMatchObject({ value: 5, writable: true });
    expect(wireBodyOf(plain)).toBeUndefined();
    expect(wireBodyOf(copyExchange(plain))).toBeUndefined();
  });
});
