import { afterEach, describe, expect, it } from "vitest";
import { type Component, createContext, defineComponent, type RouteContext } from "../src/index.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A component that records what happens to its endpoints, in order: `create rec:a`,
 * `send rec:a`, `sent rec:a`, `stop rec:a`. With `gate`, each send waits for the gate to open.
 */
function recordingComponent(gate?: Promise<void>) {
  const log: string[] = [];
  const component = defineComponent({
    scheme: "rec",
    options: {},
    createEndpoint(address) {
      log.push(`create ${address.uri}`);
      return {
        uri: address.uri,
        send(exchange) {
          log.push(`send ${address.uri}`);
          if (address.path === "fail") throw new Error("refused");
          exchange.body = `${String(exchange.body)}>${address.path}`;
          if (gate === undefined) {
            log.push(`sent ${address.uri}`);
            return;
          }
          return gate.then(() => {
            log.push(`sent ${address.uri}`);
          });
        },
        stop() {
          log.push(`stop ${address.uri}`);
        },
      };
    },
  });
  const entries = (kind: string) =>
    log.filter((entry) => entry.startsWith(`${kind} `)).map((entry) => entry.slice(kind.length + 1));
  return { component: component as unknown as Component, log, entries };
}

async function start(configure: Parameters<RouteContext["addRoutes"]>[0], component: Component) {
  context = createContext({ logLevel: "off" });
  context.addComponent(component);
  await context.addRoutes(configure);
  await context.start();
  return context;
}

describe("recipientList keeps a bounded LRU of the endpoints it creates", () => {
  it("stops and forgets the least recently used endpoint past cacheSize", async () => {
    const { component, entries } = recordingComponent();
    const running = await start(
      (r) => r.from("direct:go").recipientList("${header.to}", { cacheSize: 3 }),
      component,
    );
    for (const to of ["rec:a", "rec:b", "rec:c", "rec:a", "rec:d", "rec:e"])
      await running.request("direct:go", "x", { to });
    await tick();
    expect(entries("create")).toEqual(["rec:a", "rec:b", "rec:c", "rec:d", "rec:e"]);
    // "a" was used again before "d" arrived, so "b" and then "c" were the least recently used.
    expect(entries("stop")).toEqual(["rec:b", "rec:c"]);
    // an evicted endpoint is created again when it is a recipient again
    expect(await running.request("direct:go", "x", { to: "rec:b" })).toBe("x>b");
    expect(entries("create")).toHaveLength(6);
  });

  it("keeps the endpoint count flat under a stream of distinct URIs", async () => {
    const { component, entries } = recordingComponent();
    const running = await start(
      (r) => r.from("direct:go").recipientList("${header.to}", { cacheSize: 50 }),
      component,
    );
    for (let index = 0; index < 1000; index += 1)
      await running.request("direct:go", "x", { to: `rec:u${index}, rec:v${index}` });
    await tick();
    expect(entries("create")).toHaveLength(2000);
    expect(entries("stop")).toHaveLength(1950);
    expect(new Set(entries("stop")).size).toBe(1950);
  });

  it("with cacheSize 0 creates the endpoints of each message and drops them after it", async () => {
    const { component, entries } = recordingComponent();
    const running = await start(
      (r) => r.from("direct:go").recipientList("${header.to}", { cacheSize: 0 }),
      component,
    );
    // a URI named twice in one list is one endpoint, sent to twice
    expect(await running.request("direct:go", "x", { to: "rec:a,rec:a" })).toBe("x>a");
    expect(await running.request("direct:go", "y", { to: "rec:a" })).toBe("y>a");
    await tick();
    expect(entries("create")).toEqual(["rec:a", "rec:a"]);
    expect(entries("send")).toEqual(["rec:a", "rec:a", "rec:a"]);
    expect(entries("stop")).toEqual(["rec:a", "rec:a"]);
  });

  it("never stops an endpoint while a copy is being sent to it", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { component, log, entries } = recordingComponent(gate);
    const running = await start(
      (r) => r.from("direct:go").recipientList("${header.to}", { cacheSize: 1, parallel: true }),
      component,
    );
    const reply = running.request("direct:go", "x", { to: "rec:a,rec:b,rec:c" });
    await tick();
    // resolving b and c evicted a and then b, but all three are still being sent to
    expect(entries("send")).toEqual(["rec:a", "rec:b", "rec:c"]);
    expect(entries("stop")).toEqual([]);
    open();
    await reply;
    await tick();
    expect(entries("stop").sort()).toEqual(["rec:a", "rec:b"]);
    for (const uri of ["rec:a", "rec:b"])
      expect(log.indexOf(`stop ${uri}`)).toBeGreaterThan(log.indexOf(`sent ${uri}`));
  });

  it("uses an endpoint the context already keeps and never evicts it", async () => {
    const running = await start(
      (r) => r.from("direct:go").recipientList("${header.to}", { cacheSize: 1 }),
      recordingComponent().component,
    );
    const kept = running.endpoint("mock:kept");
    for (const to of ["mock:kept", "mock:other1", "mock:other2", "mock:kept"])
      await running.request("direct:go", to, { to });
    expect(kept.receivedBodies).toEqual(["mock:kept", "mock:kept"]);
    expect(running.endpoint("mock:other2").receivedCount).toBe(1);
  });

  it("names the recipient a failure happened at", async () => {
    const running = await start(
      (r) => r.from("direct:go").routeId("notify").recipientList("${header.to}", { cacheSize: 1 }),
      recordingComponent().component,
    );
    await running.addRoutes((r) =>
      r
        .from("direct:broken")
        .routeId("mailer")
        .process(() => {
          throw new Error("mail server down");
        }),
    );
    await expect(running.request("direct:go", "x", { to: "rec:a,direct:broken" })).rejects.toThrow(
      "Route 'notify' failed at step #1 recipientList [direct:broken] > route 'mailer' #1 process: Error: mail server down",
    );
    await expect(running.request("direct:go", "x", { to: "rec:fail" })).rejects.toThrow(
      "Route 'notify' failed at step #1 recipientList [rec:fail] > #1 process(to recipient): Error: refused",
    );
  });

  it("refuses a bad cacheSize when the route is added", async () => {
    context = createContext({ logLevel: "off" });
    await expect(
      context.addRoutes((r) => r.from("direct:a").recipientList("${header.to}", { cacheSize: -1 })),
    ).rejects.toThrow("recipientList() option 'cacheSize' must be a whole number >= 0, found number -1");
    await expect(
      context.addRoutes((r) => r.from("direct:b").recipientList("${header.to}", { cacheSize: 1.5 })),
    ).rejects.toThrow("recipientList() option 'cacheSize' must be a whole number >= 0, found number 1.5");
    await expect(
      context.addRoutes((r) => r.from("direct:c").recipientList("${header.to}", { cachesize: 2 } as never)),
    ).rejects.toThrow("recipientList() has no option 'cachesize' (did you mean cacheSize?)");
  });
});
