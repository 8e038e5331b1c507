import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { createContext, type RouteContext } from "@routekit/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { httpPlugin, httpServerOf } from "../../src/index.js";

// A proxy route built the way the http guide shows, in front of a real backend, both on
// loopback: whatever the client puts in the proxied path stays one path segment at the backend.

let backend: RouteContext;
let proxy: RouteContext;
let proxyUrl: string;
let deadPort: number;
const hits: Array<{ route: string; method: string; path: string; id?: unknown }> = [];

beforeAll(async () => {
  backend = createContext({ logLevel: "off" });
  backend.use(httpPlugin({ port: 0 }));
  await backend.addRoutes((r) => {
    r.from("http:/items/{id}").process((exchange) => {
      hits.push({
        route: "items",
        method: String(exchange.headers["http.method"]),
        path: String(exchange.headers["http.path"]),
        id: exchange.headers["http.path.id"],
      });
      exchange.body = { id: exchange.headers["http.path.id"] };
    });
    r.from("http:/admin").process((exchange) => {
      hits.push({ route: "admin", method: String(exchange.headers["http.method"]), path: "/admin" });
      exchange.body = "admin area";
    });
  });
  await backend.start();
  const backendUrl = httpServerOf(backend).url;

  proxy = createContext({ logLevel: "off" });
  proxy.use(httpPlugin({ port: 0 }));
  // A port that was just free: nothing listens there, so a call to it fails.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  deadPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await proxy.addRoutes((r) => {
    r.from("http:/proxy/{id}").toD(`${backendUrl}/items/\${header['http.path.id']}`, { cacheSize: 16 });
    // The exact pattern: the dotted header name read without brackets.
    r.from("http:/proxy2/{id}").toD(`${backendUrl}/items/\${header.http.path.id}`);
    r.from("http:/dead/{id}").toD(`http://127.0.0.1:${deadPort}/private/\${header['http.path.id']}`);
  });
  await proxy.start();
  proxyUrl = httpServerOf(proxy).url;
});
afterAll(async () => {
  await proxy.stop({ timeoutMs: 2_000 });
  await backend.stop({ timeoutMs: 2_000 });
});
beforeEach(() => {
  hits.length = 0;
});

/** GETs a path exactly as written (node:http does not normalise dot segments the way URL parsers do). */
function get(path: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request({ hostname, port, path, method: "GET" }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("toD in a proxy route cannot be steered by the client", () => {
  it("passes an ordinary id through", async () => {
    expect(await get("/proxy/42")).toEqual({ status: 200, text: '{"id":"42"}' });
    expect(hits).toEqual([{ route: "items", method: "GET", path: "/items/42", id: "42" }]);
  });

  it.each([
    ["/proxy/x%3FhttpMethod%3DDELETE", "x?httpMethod=DELETE"],
    ["/proxy/x%3FhttpMethod%3DDELETE%26timeout%3D1", "x?httpMethod=DELETE&timeout=1"],
    ["/proxy/x%3Ftimeout%3D1", "x?timeout=1"],
    ["/proxy/x%26throwExceptionOnFailure%3Dfalse", "x&throwExceptionOnFailure=false"],
    ["/proxy/..%2F..%2Fadmin", "../../admin"],
    ["/proxy/..%2Fadmin", "../admin"],
    ["/proxy/%2E%2E%2Fadmin", "../admin"],
    ["/proxy/a%2F..%2F..%2Fadmin%3Fx", "a/../../admin?x"],
    ["/proxy/x%23frag", "x#frag"],
  ])("%s reaches the backend as one /items segment, by GET", async (path, id) => {
    const reply = await get(path);
    expect(reply.status).toBe(200);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ route: "items", method: "GET", id });
    expect(hits.some((hit) => hit.route === "admin" || hit.method !== "GET")).toBe(false);
  });

  it.each([["/proxy/%2E%2E"], ["/proxy/%2e"], ["/proxy/.%2E"]])(
    "%s (a dot segment) is refused before anything reaches the backend",
    async (path) => {
      // The server's own URL handling may already answer 404; toD refuses a dot segment anyway.
      const reply = await get(path);
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(hits).toEqual([]);
    },
  );

  it("the dotted form ${header.http.path.id} is encoded the same way", async () => {
    for (const path of ["/proxy2/x%3FhttpMethod%3DDELETE", "/proxy2/..%2F..%2Fadmin"]) {
      expect((await get(path)).status).toBe(200);
    }
    expect(hits.map((hit) => [hit.route, hit.method, hit.id])).toEqual([
      ["items", "GET", "x?httpMethod=DELETE"],
      ["items", "GET", "../../admin"],
    ]);
  });

  it("a failing backend call answers the client without the backend's address", async () => {
    const reply = await get("/dead/secret-id");
    expect(reply.status).toBeGreaterThanOrEqual(500);
    expect(reply.text).not.toContain(String(deadPort));
    expect(reply.text).not.toContain("/private/");
  });

  it("a flood of distinct ids leaves the proxy serving (endpoints bounded by cacheSize)", async () => {
    for (let index = 0; index < 100; index += 1) expect((await get(`/proxy/id-${index}`)).status).toBe(200);
    expect(hits).toHaveLength(100);
    expect(await get("/proxy/again")).toEqual({ status: 200, text: '{"id":"again"}' });
  });
});
