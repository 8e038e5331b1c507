import { createContext, groupedBodies, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function replyRoutes(): Promise<void> {
  await context.addRoutes((r) => {
    r.from("direct:a")
      .setBody("A(${body})")
      .setHeader("from", () => "a");
    r.from("direct:b")
      .setBody("B(${body})")
      .setHeader("from", () => "b");
  });
}

describe("multicast", () => {
  it("sends a copy to each endpoint in order; the last reply wins", async () => {
    context = createContext();
    await replyRoutes();
    await context.addRoutes((r) =>
      r.from("direct:m").multicast(["direct:a", "mock:seen", "direct:b"]).to("mock:after"),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:m", { body: "x", headers: { keep: 1 } });
    expect(exchange.body).toBe("B(x)");
    expect(exchange.headers).toEqual({ keep: 1, from: "b" });
    // The second endpoint got the original message, not the first endpoint's reply.
    const seen = context.endpoint("mock:seen");
    expect(seen.receivedBodies).toEqual(["x"]);
    expect(seen.received[0]?.headers).toEqual({ keep: 1 });
    expect(context.endpoint("mock:after").receivedBodies).toEqual(["B(x)"]);
  });

  it("aggregates the replies in endpoint order", async () => {
    context = createContext();
    await replyRoutes();
    await context.addRoutes((r) =>
      r.from("direct:m").multicast(["direct:a", "direct:b"], { aggregate: groupedBodies() }),
    );
    await context.start();
    expect(await context.request("direct:m", "x")).toEqual(["A(x)", "B(x)"]);
  });

  it("parallel sends to every endpoint at once and still lets the last endpoint's reply win", async () => {
    context = createContext();
    let active = 0;
    let peak = 0;
    const slow = (name: string, ticks: number) => async (exchange: { body: unknown }) => {
      active++;
      peak = Math.max(peak, active);
      for (let index = 0; index < ticks; index++) await tick();
      active--;
      exchange.body = `${name}(${String(exchange.body)})`;
    };
    await context.addRoutes((r) => {
      r.from("direct:slow").process(slow("slow", 5));
      r.from("direct:fast").process(slow("fast", 1));
      r.from("direct:p").multicast(["direct:slow", "direct:fast"], { parallel: true });
      r.from("direct:pa").multicast(["direct:slow", "direct:fast"], {
        parallel: 2,
        aggregate: groupedBodies(),
      });
    });
    await context.start();
    expect(await context.request("direct:p", "x")).toBe("fast(x)");
    expect(peak).toBe(2);
    expect(await context.request("direct:pa", "y")).toEqual(["slow(y)", "fast(y)"]);
  });

  it("a failing endpoint fails the exchange naming it; the other endpoints still get their copy", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r.from("direct:m").routeId("fan").multicast(["mock:a", "mock:b", "mock:c"]),
    );
    await context.start();
    context.endpoint("mock:b").whenAnyExchangeReceived(() => {
      throw new Error("b is down");
    });
    await expect(context.request("direct:m", "x")).rejects.toThrow(
      "Route 'fan' failed at step #1 multicast [mock:b] > #1 to(mock:b): Error: b is down",
    );
    expect(context.endpoint("mock:a").receivedCount).toBe(1);
    expect(context.endpoint("mock:c").receivedCount).toBe(1);
  });

  it("with stopOnError the endpoints after a failing one get nothing", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:m")
        .routeId("fan")
        .multicast(["mock:a", "direct:broken", "mock:c"], { stopOnError: true });
      r.from("direct:broken")
        .routeId("broken")
        .process(() => {
          throw new TypeError("no");
        });
    });
    await context.start();
    await expect(context.request("direct:m", "x")).rejects.toThrow(
      "Route 'fan' failed at step #1 multicast [direct:broken] > route 'broken' #1 process: TypeError: no",
    );
    expect(context.endpoint("mock:a").receivedCount).toBe(1);
    expect(context.endpoint("mock:c").receivedCount).toBe(0);
  });

  it("runs synchronously (no promise) when every endpoint is synchronous", async () => {
    context = createContext();
    await replyRoutes();
    await context.addRoutes((r) => r.from("direct:m").multicast(["mock:a", "direct:a"]));
    await context.start();
    const exchange = context.createExchange({ body: "x", pattern: "InOut" });
    expect(context.endpoint("direct:m").send(exchange)).toBeUndefined();
    expect(exchange.body).toBe("A(x)");
  });

  it("refuses an unknown endpoint when the route is added", async () => {
    context = createContext();
    await expect(
      context.addRoutes((r) => r.from("direct:m").multicast(["mock:a", "nope:x"])),
    ).rejects.toThrow("Endpoint 'nope:x': no component for scheme 'nope'");
  });
});

describe("recipientList", () => {
  it("resolves the recipients per exchange from comma text or an array", async () => {
    context = createContext();
    await replyRoutes();
    await context.addRoutes((r) => {
      r.from("direct:text").recipientList("${header.to}").to("mock:after");
      r.from("direct:array").recipientList((exchange) => exchange.headers.to as string[], {
        aggregate: groupedBodies(),
      });
    });
    await context.start();
    expect(await context.request("direct:text", "x", { to: "mock:one, direct:a" })).toBe("A(x)");
    expect(await context.request("direct:text", "y", { to: "mock:two" })).toBe("y");
    expect(context.endpoint("mock:one").receivedBodies).toEqual(["x"]);
    expect(context.endpoint("mock:two").receivedBodies).toEqual(["y"]);
    expect(await context.request("direct:array", "z", { to: ["direct:b", "direct:a"] })).toEqual([
      "B(z)",
      "A(z)",
    ]);
    expect(context.endpoint("mock:after").receivedBodies).toEqual(["A(x)", "y"]);
  });

  it("with no recipients the exchange continues unchanged", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:none").recipientList("${header.to}").to("mock:after"));
    await context.start();
    expect(await context.request("direct:none", "a")).toBe("a");
    expect(await context.request("direct:none", "b", { to: " , " })).toBe("b");
    expect(await context.request("direct:none", "c", { to: [] })).toBe("c");
    expect(context.endpoint("mock:after").receivedCount).toBe(3);
  });

  it("takes a delimiter, runs in parallel, and fails clearly on bad recipients", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:semi").routeId("semi").recipientList("${header.to}", { delimiter: ";", parallel: true });
    });
    await context.start();
    await context.request("direct:semi", "x", { to: "mock:p;mock:q" });
    expect(context.endpoint("mock:p").receivedBodies).toEqual(["x"]);
    expect(context.endpoint("mock:q").receivedBodies).toEqual(["x"]);
    await expect(context.request("direct:semi", "x", { to: ["mock:p", 5] })).rejects.toThrow(
      "Route 'semi' step #1 recipientList: recipient 1 is number 5, expected an endpoint URI",
    );
    await expect(context.request("direct:semi", "x", { to: 5 })).rejects.toThrow(
      'the recipient list expression yielded number 5; expected "uri1,uri2" text or an array of URIs',
    );
    await expect(context.request("direct:semi", "x", { to: "mock:p;bogus:y" })).rejects.toThrow(
      "Endpoint 'bogus:y': no component for scheme 'bogus'",
    );
    // Nothing is sent when one recipient cannot be resolved.
    expect(context.endpoint("mock:p").receivedCount).toBe(1);
  });
});
