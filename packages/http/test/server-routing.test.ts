import { createContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { HTTP_HEADERS, httpPlugin } from "../src/index.js";
import { type Served, serve } from "./support/serve.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.context.stop({ timeoutMs: 2_000 });
  served = undefined;
});

describe("http server routing", () => {
  it("selects the route by path and method, 405 with Allow for another method, 404 otherwise", async () => {
    served = await serve((r) => {
      r.from("http:/orders?httpMethodRestrict=POST")
        .routeId("create")
        .setBody(() => "created");
      r.from("http:/orders?httpMethodRestrict=GET,HEAD")
        .routeId("list")
        .setBody(() => "listed");
      r.from("http:/health")
        .routeId("health")
        .setBody(() => "ok");
    });
    const created = await fetch(`${served.url}/orders`, { method: "POST", body: "x" });
    expect(created.status).toBe(200);
    expect(await created.text()).toBe("created");
    const listed = await fetch(`${served.url}/orders`);
    expect(await listed.text()).toBe("listed");
    const deleted = await fetch(`${served.url}/orders`, { method: "DELETE" });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get("allow")).toBe("POST, GET, HEAD");
    expect(await deleted.json()).toEqual({
      error: "Method DELETE is not allowed on /orders; allowed: POST, GET, HEAD",
    });
    const missing = await fetch(`${served.url}/nothing/here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "No route for GET /nothing/here" });
    const anyMethod = await fetch(`${served.url}/health`, { method: "PUT" });
    expect(await anyMethod.text()).toBe("ok");
  });

  it("maps the request to http.* headers and path templates to http.path.<name>", async () => {
    served = await serve((r) => {
      r.from("http:/orders/{id}/lines/{line}").process((exchange) => {
        exchange.body = { ...exchange.headers, [HTTP_HEADERS.remoteAddress]: "seen" };
      });
      r.from("http:/orders/special/lines/{line}").setBody(() => "literal wins");
    });
    const response = await fetch(`${served.url}/orders/a%20b/lines/7?tag=x&tag=y&q=1`, {
      headers: { "X-Trace": "t-1", "llm.provider": "forged", "routekit.secret": "forged" },
    });
    const headers = (await response.json()) as Record<string, unknown>;
    expect(headers[HTTP_HEADERS.method]).toBe("GET");
    expect(headers[HTTP_HEADERS.path]).toBe("/orders/a%20b/lines/7");
    expect(headers[HTTP_HEADERS.query]).toEqual({ tag: ["x", "y"], q: "1" });
    expect(headers["http.path.id"]).toBe("a b");
    expect(headers["http.path.line"]).toBe("7");
    expect(headers["http.header.x-trace"]).toBe("t-1");
    // A client can never set a framework header: its headers land under http.header.*.
    expect(headers["llm.provider"]).toBeUndefined();
    expect(headers["routekit.secret"]).toBeUndefined();
    expect(headers["http.header.llm.provider"]).toBe("forged");
    const literal = await fetch(`${served.url}/orders/special/lines/1`);
    expect(await literal.text()).toBe("literal wins");
  });

  it("refuses two routes serving the same path and method, naming both", async () => {
    const context = createContext({ logLevel: "error" });
    context.use(httpPlugin());
    await context.addRoutes((r) => {
      r.from("http:/a?httpMethodRestrict=POST")
        .routeId("first")
        .setBody(() => 1);
      r.from("http:/a?httpMethodRestrict=GET,POST")
        .routeId("second")
        .setBody(() => 2);
    });
    await expect(context.start()).rejects.toThrow(
      "Route 'second' cannot serve POST /a: route 'first' already does (restrict the methods with httpMethodRestrict)",
    );
  });

  it("answers 400 to a malformed percent-escape in the path", async () => {
    served = await serve((r) => {
      r.from("http:/{name}").setBody(() => "x");
    });
    const response = await fetch(`${served.url}/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Malformed request target '/%E0%A4%A'" });
  });
});
