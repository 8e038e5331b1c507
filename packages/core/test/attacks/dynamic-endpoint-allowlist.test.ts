// Dynamic sends (toD, recipientList) resolve only the endpoints allowedEndpoints lets through,
// checked on the built URI (scheme, path and options) before any endpoint is made.
import { afterEach, describe, expect, it } from "vitest";
import {
  type Component,
  type ContextOptions,
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

/** A component that records every endpoint it makes: a refused URI must make none. */
function recordingComponent() {
  const created: string[] = [];
  const component = defineComponent({
    scheme: "rec",
    options: { mode: { type: "string", default: "plain" }, size: { type: "integer", default: 1, min: 1 } },
    createEndpoint(address) {
      created.push(address.uri);
      return {
        uri: address.uri,
        send(exchange) {
          exchange.body = `sent to ${address.uri}`;
        },
      };
    },
  });
  return { component: component as unknown as Component, created };
}

async function start(
  configure: Parameters<RouteContext["addRoutes"]>[0],
  options: ContextOptions = {},
): Promise<{ running: RouteContext; created: string[]; admin: string[] }> {
  const { component, created } = recordingComponent();
  const admin: string[] = [];
  context = createContext({ logLevel: "off", ...options });
  context.addComponent(component);
  await context.addRoutes((r) => {
    r.from("direct:admin").process((exchange) => {
      admin.push(String(exchange.body));
    });
  });
  await context.addRoutes(configure);
  await context.start();
  return { running: context, created, admin };
}

async function refusal(
  running: RouteContext,
  uri: string,
  headers: Record<string, unknown>,
): Promise<RoutekitError> {
  const exchange = await running.requestExchange(uri, { body: "payload", headers });
  let error: unknown = exchange.error;
  while (error instanceof RoutekitError && error.code === "STEP_FAILED" && error.cause instanceof Error)
    error = error.cause;
  expect(error, `expected ${uri} to be refused`).toBeInstanceOf(RoutekitError);
  expect((error as RoutekitError).code).toBe("ENDPOINT_NOT_ALLOWED");
  return error as RoutekitError;
}

describe("recipientList with allowedEndpoints", () => {
  it("refuses an endpoint outside the list, naming route, step, URI and option, and makes nothing", async () => {
    const { running, created, admin } = await start((r) =>
      r
        .from("direct:go")
        .routeId("fan")
        .recipientList("${header.to}", { allowedEndpoints: ["rec:orders/*", "rec:audit?mode=*"] }),
    );
    for (const to of ["direct:admin", "rec:orders/1,direct:admin", "rec:billing/1", "rec:orders/1?mode=x"]) {
      const error = await refusal(running, "direct:go", { to });
      expect(error.message).toMatch(/^Route 'fan' step #1 recipientList: endpoint '/);
      expect(error.message).toContain("is not allowed by the step's option 'allowedEndpoints'");
      expect(error.message).toContain("it matches none of [rec:orders/*, rec:audit?mode=*]");
    }
    // Only allowed endpoints were ever made (a list is resolved before any copy is sent).
    expect(created).toEqual(["rec:orders/1"]);
    expect(admin).toEqual([]);
    const sent = await running.requestExchange("direct:go", {
      headers: { to: "rec:orders/7,rec:audit?mode=loud" },
    });
    expect(sent.error).toBeUndefined();
    expect(created).toEqual(["rec:orders/1", "rec:orders/7", "rec:audit?mode=loud"]);
  });

  it("matches options by their decoded name, so an encoded name cannot slip one in", async () => {
    const { running, created } = await start((r) =>
      r.from("direct:go").recipientList("${header.to}", { allowedEndpoints: ["rec:q?mode=*"] }),
    );
    for (const to of ["rec:q?%73ize=5", "rec:q?mode=a&size=5", "rec:q?mode=a%26size%3D5&size=2"]) {
      const error = await refusal(running, "direct:go", { to });
      expect(error.message).toContain("(options: ");
    }
    expect(created).toEqual([]);
  });

  it("shows a long refused URI cut short and without its option values", async () => {
    const { running } = await start((r) =>
      r.from("direct:go").recipientList("${header.to}", { allowedEndpoints: ["rec:*"] }),
    );
    const error = await refusal(running, "direct:go", { to: `direct:${"a".repeat(100_000)}?secret=s3cr3t` });
    expect(error.message.length).toBeLessThan(600);
    expect(error.message).not.toContain("s3cr3t");
  });

  it("takes a predicate over scheme, path and options", async () => {
    const { running, created } = await start((r) =>
      r.from("direct:go").recipientList("${header.to}", {
        allowedEndpoints: (target) => target.scheme === "rec" && !target.options.has("size"),
      }),
    );
    await refusal(running, "direct:go", { to: "rec:x?size=3" });
    await refusal(running, "direct:go", { to: "direct:admin" });
    expect(
      (await running.requestExchange("direct:go", { headers: { to: "rec:x?mode=y" } })).error,
    ).toBeUndefined();
    expect(created).toEqual(["rec:x?mode=y"]);
  });
});

describe("toD with allowedEndpoints", () => {
  it("checks a raw template and a function, whose values could pick any endpoint", async () => {
    const { running, admin } = await start((r) => {
      r.from("direct:raw")
        .routeId("raw")
        .toD("${header.target}", { raw: true, allowedEndpoints: ["rec:*"] });
      r.from("direct:fn").toD((exchange) => String(exchange.headers.target), { allowedEndpoints: ["rec:*"] });
    });
    const error = await refusal(running, "direct:raw", { target: "direct:admin" });
    expect(error.message).toContain(
      "Route 'raw' step #1 toD(${header.target}, raw): endpoint 'direct:admin'",
    );
    await refusal(running, "direct:fn", { target: "direct:admin" });
    await refusal(running, "direct:raw", { target: "rec:x?size=9" });
    expect(admin).toEqual([]);
    const sent = await running.requestExchange("direct:raw", { headers: { target: "rec:fine" } });
    expect(sent.body).toBe("sent to rec:fine");
  });
});

describe("the context's allowedEndpoints", () => {
  it("is the default of every dynamic send, and a step's own list replaces it", async () => {
    const { running, admin } = await start(
      (r) => {
        r.from("direct:list").recipientList("${header.to}");
        r.from("direct:raw").toD("${header.to}", { raw: true });
        r.from("direct:own").recipientList("${header.to}", { allowedEndpoints: ["direct:admin"] });
      },
      { allowedEndpoints: ["rec:*?*"] },
    );
    const error = await refusal(running, "direct:list", { to: "direct:admin" });
    expect(error.message).toContain("is not allowed by the context's option 'allowedEndpoints'");
    await refusal(running, "direct:raw", { to: "direct:admin" });
    expect(
      (await running.requestExchange("direct:list", { headers: { to: "rec:a?size=2" } })).error,
    ).toBeUndefined();
    expect(
      (await running.requestExchange("direct:own", { headers: { to: "direct:admin" } })).error,
    ).toBeUndefined();
    // Only the step whose own list names direct:admin reached it.
    expect(admin).toHaveLength(1);
  });

  it("refuses bad lists when the context is made or the route added", async () => {
    expect(() => createContext({ allowedEndpoints: [] })).toThrow(
      "the context's option 'allowedEndpoints' must be a non-empty array of endpoint patterns",
    );
    expect(() => createContext({ allowedEndpoints: ["no scheme"] })).toThrow(
      "the context's option 'allowedEndpoints'[0] must be an endpoint pattern",
    );
    context = createContext({ logLevel: "off" });
    await expect(
      context.addRoutes((r) =>
        r.from("direct:a").recipientList("${header.to}", { allowedEndpoints: "seda:*" as never }),
      ),
    ).rejects.toThrow("recipientList() option 'allowedEndpoints' must be a non-empty array");
    await expect(
      context.addRoutes((r) =>
        r.from("direct:b").toD("${header.to}", { allowedEndpoints: ["seda:*?*ize=1"] }),
      ),
    ).rejects.toThrow("option patterns are '?*' or 'name=value&name=*' with literal names");
  });
});
