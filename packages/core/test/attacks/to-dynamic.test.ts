import { afterEach, describe, expect, it } from "vitest";
import {
  type Component,
  createContext,
  defineComponent,
  type RouteContext,
  RoutekitError,
} from "../../src/index.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

async function start(configure: Parameters<RouteContext["addRoutes"]>[0], ...components: Component[]) {
  context = createContext({ logLevel: "off" });
  for (const component of components) context.addComponent(component);
  await context.addRoutes(configure);
  await context.start();
  return context;
}

async function failure(running: RouteContext, uri: string, headers: Record<string, unknown>): Promise<Error> {
  const exchange = await running.requestExchange(uri, { headers });
  if (exchange.error === undefined) throw new Error(`expected ${uri} to fail`);
  let error: unknown = exchange.error;
  while (error instanceof RoutekitError && error.code === "STEP_FAILED" && error.cause instanceof Error)
    error = error.cause;
  return error as Error;
}

/** A component that records the URIs and options of the endpoints it makes, and their stops. */
function recordingComponent() {
  const created: Array<{ path: string; options: Record<string, unknown> }> = [];
  const stopped: string[] = [];
  const component = defineComponent({
    scheme: "rec",
    options: { mode: { type: "string", default: "plain" }, size: { type: "integer", default: 1, min: 1 } },
    createEndpoint(address) {
      created.push({ path: address.path, options: { ...address.options } });
      return {
        uri: address.uri,
        send(exchange) {
          exchange.body = `${address.path}|${address.options.mode}|${address.options.size}`;
        },
        stop() {
          stopped.push(address.uri);
        },
      };
    },
  });
  return { component: component as unknown as Component, created, stopped };
}

describe("toD encodes interpolated values", () => {
  it("keeps a value inside one path segment: no option, query or extra segment can be added", async () => {
    const { component, created } = recordingComponent();
    const running = await start((r) => r.from("direct:go").toD("rec:items/${header.id}"), component);
    for (const id of ["x?mode=DELETE", "x&size=9", "a/b", "x#y", "%3F", "sp ace"]) {
      await running.request("direct:go", null, { id });
    }
    expect(created.map((entry) => entry.path)).toEqual([
      "items/x%3Fmode%3DDELETE",
      "items/x%26size%3D9",
      "items/a%2Fb",
      "items/x%23y",
      "items/%253F",
      "items/sp%20ace",
    ]);
    expect(created.every((entry) => entry.options.mode === "plain" && entry.options.size === 1)).toBe(true);
  });

  it("keeps a value after '?' inside one option value", async () => {
    const { component, created } = recordingComponent();
    const running = await start((r) => r.from("direct:go").toD("rec:x?mode=${header.mode}"), component);
    expect(await running.request("direct:go", null, { mode: "a&size=9" })).toBe("x|a&size=9|1");
    expect(await running.request("direct:go", null, { mode: "b=c d+e" })).toBe("x|b=c d+e|1");
    expect(created.map((entry) => entry.options)).toEqual([
      { mode: "a&size=9", size: 1 },
      { mode: "b=c d+e", size: 1 },
    ]);
  });

  it.each([".", "..", "%2e", "%2E%2e"])("refuses a value that makes the dot segment %j", async (id) => {
    const { component, created } = recordingComponent();
    const running = await start(
      (r) => r.from("direct:go").routeId("proxy").toD("rec:items/${header.id}/view"),
      component,
    );
    const error = await failure(running, "direct:go", {
      id: id.startsWith("%") ? decodeURIComponent(id) : id,
    });
    expect(error).toBeInstanceOf(RoutekitError);
    expect((error as RoutekitError).code).toBe("URI_INVALID");
    expect(error.message).toContain("Route 'proxy' step #1 toD(rec:items/${header.id}/view)");
    expect(error.message).toContain("makes a '.' or '..' path segment");
    expect(created).toEqual([]);
  });

  it("allows dots inside a segment and dot segments the author wrote", async () => {
    const { component, created } = recordingComponent();
    const running = await start((r) => r.from("direct:go").toD("rec:a/../items/${header.id}"), component);
    await running.request("direct:go", null, { id: "v1.2..3" });
    expect(created.map((entry) => entry.path)).toEqual(["a/../items/v1.2..3"]);
  });

  it("inserts values as they are with { raw: true }, and says so when an encoded URI is not one", async () => {
    const { component } = recordingComponent();
    const running = await start((r) => {
      r.from("direct:raw").toD("${header.target}", { raw: true });
      r.from("direct:encoded").routeId("encoded").toD("${header.target}");
    }, component);
    expect(await running.request("direct:raw", null, { target: "rec:y?mode=m&size=2" })).toBe("y|m|2");
    const error = await failure(running, "direct:encoded", { target: "rec:y?mode=m" });
    expect((error as RoutekitError).code).toBe("URI_INVALID");
    expect(error.message).toContain("Route 'encoded' step #1 toD(${header.target})");
    expect(error.message).toContain("{ raw: true }");
  });

  it("uses a function's result as it is", async () => {
    const { component } = recordingComponent();
    const running = await start(
      (r) => r.from("direct:go").toD((exchange) => `rec:f?size=${String(exchange.headers.n)}`),
      component,
    );
    expect(await running.request("direct:go", null, { n: 3 })).toBe("f|plain|3");
  });

  it("does not show a built URI's query in an error (option values may be credentials)", async () => {
    const { component } = recordingComponent();
    const running = await start(
      (r) => r.from("direct:go").toD("rec:x?token=s3cr3t-value&size=${header.n}"),
      component,
    );
    const error = await failure(running, "direct:go", { n: 2 });
    expect(error.message).toContain("toD built 'rec:x?…'");
    expect(error.message).toContain("unknown option 'token'");
    expect(error.message).toContain("Route 'route1' step #1 toD(rec:x?…)");
    expect(error.message).not.toContain("s3cr3t-value");
  });

  it("refuses bad options when the route is added", async () => {
    context = createContext({ logLevel: "off" });
    await expect(
      context.addRoutes((r) => r.from("direct:a").toD("mock:x", { cacheSize: -1 })),
    ).rejects.toThrow("toD() option 'cacheSize' must be a whole number >= 0 (found -1)");
    await expect(
      context.addRoutes((r) => r.from("direct:b").toD("mock:x", { raw: "yes" } as never)),
    ).rejects.toThrow("toD() option 'raw' must be true or false");
    await expect(
      context.addRoutes((r) => r.from("direct:c").toD("mock:x", { cachesize: 2 } as never)),
    ).rejects.toThrow("toD() has no option 'cachesize' (expected raw, cacheSize or allowedEndpoints)");
  });
});

describe("toD keeps a bounded LRU of the endpoints it creates", () => {
  it("stops and forgets the least recently used endpoint past cacheSize", async () => {
    const { component, created, stopped } = recordingComponent();
    const running = await start(
      (r) => r.from("direct:go").toD("rec:${header.id}", { cacheSize: 3 }),
      component,
    );
    for (const id of ["a", "b", "c", "a", "d", "e"]) await running.request("direct:go", null, { id });
    expect(created.map((entry) => entry.path)).toEqual(["a", "b", "c", "d", "e"]);
    await new Promise((resolve) => setImmediate(resolve));
    // "a" was used again before "d" arrived, so "b" and then "c" were the least recently used.
    expect(stopped).toEqual(["rec:b", "rec:c"]);
    await running.request("direct:go", null, { id: "b" });
    expect(created).toHaveLength(6);
  });

  it("keeps memory flat under a stream of distinct URIs", async () => {
    const { component, created, stopped } = recordingComponent();
    const running = await start(
      (r) => r.from("direct:go").toD("rec:${header.id}", { cacheSize: 50 }),
      component,
    );
    for (let index = 0; index < 2000; index += 1)
      await running.request("direct:go", null, { id: `u${index}` });
    await new Promise((resolve) => setImmediate(resolve));
    expect(created).toHaveLength(2000);
    expect(stopped).toHaveLength(1950);
  });

  it("with cacheSize 0 creates and drops an endpoint per message", async () => {
    const { component, created, stopped } = recordingComponent();
    const running = await start(
      (r) => r.from("direct:go").toD("rec:${header.id}", { cacheSize: 0 }),
      component,
    );
    for (const id of ["a", "a", "a"]) await running.request("direct:go", null, { id });
    await new Promise((resolve) => setImmediate(resolve));
    expect(created).toHaveLength(3);
    expect(stopped).toEqual(["rec:a", "rec:a", "rec:a"]);
  });

  it("uses an endpoint the context already keeps and never evicts it", async () => {
    const running = await start((r) => {
      r.from("direct:go").toD("mock:${header.id}", { cacheSize: 1 });
    });
    const kept = running.endpoint("mock:kept");
    for (const id of ["kept", "other1", "other2", "kept"]) await running.request("direct:go", id, { id });
    expect(kept.received.map((exchange) => exchange.body)).toEqual(["kept", "kept"]);
    expect(running.endpoint("mock:other2").receivedCount).toBe(1);
  });
});
