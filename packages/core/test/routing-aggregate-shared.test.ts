import {
  createContext,
  groupedBodies,
  type RouteContext,
  type RouteDsl,
  RoutekitError,
} from "@routekit/core";
import { decodeStoredExchange, encodeStoredExchange, STORED_EXCHANGE_FORMAT } from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

async function refusal(options: Record<string, unknown>): Promise<string> {
  context = createContext();
  try {
    await context.addRoutes((r) => {
      (
        r.from("direct:in").routeId("bad") as unknown as Record<
          "aggregate",
          (...args: unknown[]) => RouteDsl<unknown>
        >
      ).aggregate("${body.order}", { strategy: groupedBodies(), completionSize: 2, ...options });
    });
  } catch (error) {
    expect(error).toBeInstanceOf(RoutekitError);
    return (error as Error).message;
  }
  throw new Error("the route was accepted");
}

// The shared behaviour runs against real servers in @routekit/redis and @routekit/postgres; here,
// what core checks when the route is added, and the stored form of an exchange.
describe("aggregate over a repository shared between processes", () => {
  it("refuses the shared-only options with the in-memory repository, naming what they need", async () => {
    expect(await refusal({ partId: "${body.id}" })).toMatch(
      /option 'partId' needs a repository shared between processes \(e\.g\. from @routekit\/redis or @routekit\/postgres\)/,
    );
    expect(await refusal({ recovery: { interval: 100 } })).toMatch(
      /option 'recovery' needs a repository shared/,
    );
  });

  it("names the methods a shared repository lacks and checks recovery options", async () => {
    expect(await refusal({ repository: { shared: true, read() {}, write() {} } })).toMatch(
      "option 'repository' must be a SharedAggregationRepository { read, write, complete, confirm, recover, expired, keys }; an object lacks complete, confirm, recover, expired, keys",
    );
    expect(await refusal({ recovery: { intervall: 5 } })).toMatch(
      /has no option 'intervall' \(did you mean interval\?\)/,
    );
    expect(await refusal({ recovery: { deadLetterUri: "nowhere" } })).toMatch(
      /option 'recovery.deadLetterUri' must be an endpoint URI like "seda:failed", found string "nowhere"/,
    );
    expect(await refusal({ recovery: { maximumRedeliveries: 1.5 } })).toMatch(/recovery.maximumRedeliveries/);
  });

  it("stores an exchange as marked JSON that keeps buffers, dates, bigints, undefined and odd keys", () => {
    const exchange = {
      body: {
        bytes: new Uint8Array([1, 2, 3]),
        at: new Date(0),
        big: 10n ** 20n,
        none: undefined,
        nan: Number.NaN,
      },
      headers: { $rk: "a header of the message", list: [1, "two", null] },
      properties: { "aggregate.size": 2 },
    };
    const text = encodeStoredExchange(exchange);
    expect(JSON.parse(text).format).toBe(STORED_EXCHANGE_FORMAT);
    const back = decodeStoredExchange(text);
    expect(back.headers).toEqual(exchange.headers);
    expect(back.properties).toEqual(exchange.properties);
    const body = back.body as Record<string, unknown>;
    expect(Buffer.isBuffer(body.bytes) && [...(body.bytes as Buffer)]).toEqual([1, 2, 3]);
    expect(body.at).toEqual(new Date(0));
    expect(body.big).toBe(10n ** 20n);
    expect("none" in body && body.none === undefined).toBe(true);
    expect(body.nan).toBeNaN();
  });

  it("refuses what cannot be stored and what it did not write, saying what it found", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeStoredExchange({ body: cyclic, headers: {}, properties: {} })).toThrow(
      "body.self refers back to itself (a cycle), which cannot be stored",
    );
    expect(() => decodeStoredExchange("{oops")).toThrow(
      'expected JSON written by routekit, found text that is not JSON: "{oops"',
    );
    expect(() => decodeStoredExchange('{"body": 1}')).toThrow(
      `expected an exchange in the format '${STORED_EXCHANGE_FORMAT}', found "{\\"body\\": 1}"`,
    );
  });
});
