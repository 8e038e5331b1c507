import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ConsoleGraph, ExchangeRecord, ExchangeSummary } from "@routekit/console";
import { consoleOf, consolePlugin } from "@routekit/console";
import { createContext, type RouteContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, getWithToken, silentLogger, TOKEN } from "./support/order-context.js";

/**
 * A client's credentials (`http.header.*`), a backend key the route sends (`http.request.header.*`),
 * a cookie the backend sets (`http.reply.headers`), a key in the query, and the backend echoing
 * the key back JSON-escaped: none of them may be readable or searchable in the console.
 */

const BACKEND_KEY = "sk-live/7f3a9c2e41b0";
const CLIENT_TOKEN = "ct-55b1e0aa-9d7c";
const PASSWORD = "pw-3e8c1d9a0f";
const QUERY_KEY = "qk-0d9e8f7a6b5c";
const COOKIE = "sid-9a8b7c6d5e4f";
/** How the backend echoes the key: `\/` for the slash and a `\u` escape for one letter. */
const ESCAPED_KEY = BACKEND_KEY.replace("/", "\\/").replace("l", "\\u006c");
const BASIC = Buffer.from(`alice:${PASSWORD}`).toString("base64");

const SECRETS = [BACKEND_KEY, ESCAPED_KEY, CLIENT_TOKEN, PASSWORD, QUERY_KEY, COOKIE, BASIC];

let backend: Server;
let backendUrl: string;
let context: RouteContext;
let consoleUrl: string;
let frontUrl: string;

beforeAll(async () => {
  backend = createServer((request, response) => {
    // A backend that repeats the Authorization it got, JSON-escaped, and sets a session cookie.
    const echoed = JSON.stringify({ got: request.headers.authorization ?? "" }).replace(
      BACKEND_KEY,
      ESCAPED_KEY,
    );
    response.writeHead(200, { "content-type": "text/plain", "set-cookie": `session=${COOKIE}; HttpOnly` });
    response.end(echoed);
  });
  await new Promise<void>((resolve) => backend.listen(0, "127.0.0.1", resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  context = createContext({ logger: silentLogger });
  context.use(consolePlugin({ token: TOKEN, record: "always" }));
  context.use(httpPlugin({ host: "127.0.0.1", port: 0 }));
  await context.addRoutes((r) => {
    r.from("http:/orders")
      .routeId("front")
      .setHeader("http.request.header.authorization", `Bearer ${BACKEND_KEY}`)
      .to(`${backendUrl}/orders`);
    r.from("http:/fail")
      .routeId("fail")
      .process((exchange) => {
        throw new Error(`login refused for ${String(exchange.headers["http.header.x-auth-token"])}`);
      });
  });
  await context.start();
  const urls = [consoleOf(context)?.url, httpServerOf(context).url];
  if (urls[0] === undefined || urls[1] === undefined)
    throw new Error("the console or the http server did not start");
  [consoleUrl, frontUrl] = [urls[0], urls[1]];
});

afterAll(async () => {
  await context.stop();
  await new Promise((resolve) => backend.close(resolve));
});

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

async function records(): Promise<ExchangeRecord[]> {
  const list = await getWithToken<{ exchanges: ExchangeSummary[] }>(consoleUrl, "/api/exchanges?limit=100");
  return Promise.all(
    list.body.exchanges.map(
      async (summary) =>
        (await getWithToken<ExchangeRecord>(consoleUrl, `/api/exchanges/${summary.id}`)).body,
    ),
  );
}

describe("the console never shows a credential", () => {
  it("redacts every component's header naming, the query, a reply cookie, an echoed key and an error text", async () => {
    const headers = { "x-auth-token": CLIENT_TOKEN, authorization: `Basic ${BASIC}` };
    const ok = await fetch(`${frontUrl}/orders?api_key=${QUERY_KEY}&page=2`, { headers });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain(ESCAPED_KEY);
    const failed = await fetch(`${frontUrl}/fail`, { headers });
    expect(failed.status).toBe(500);
    await failed.text();

    let seen: ExchangeRecord[] = [];
    await eventually(async () => {
      seen = await records();
      return ["front", "fail"].every((id) =>
        seen.some((record) => record.routeId === id && record.status !== "running"),
      );
    });
    expectNoSecret(JSON.stringify(seen));

    const front = seen.find((record) => record.routeId === "front")!;
    expect(front.input.headers).toMatchObject({
      "http.header.x-auth-token": "[redacted]",
      "http.header.authorization": "[redacted]",
    });
    expect(front.input.headers["http.query"]).toBe('{"api_key":"[redacted]","page":"2"}');
    expect(front.output?.headers["http.request.header.authorization"]).toBe("[redacted]");
    expect(front.output?.headers["http.reply.headers"]).toContain('"set-cookie":"[redacted]"');
    expect(front.output?.body).toBe('{"got":"[redacted]"}');
    const fail = seen.find((record) => record.routeId === "fail")!;
    expect(fail.error).toBe("Error: login refused for [redacted]");
  });

  it("finds no exchange when searched for a credential", async () => {
    for (const secret of SECRETS) {
      const found = await getWithToken<{ exchanges: ExchangeSummary[] }>(
        consoleUrl,
        `/api/exchanges?q=${encodeURIComponent(secret.slice(0, 12))}`,
      );
      expect(found.body.exchanges).toEqual([]);
    }
  });

  it("shows the value a route sets on a credential header as [redacted] in the route graph", async () => {
    const { body: graph } = await getWithToken<ConsoleGraph>(consoleUrl, "/api/graph");
    expectNoSecret(JSON.stringify(graph));
    const front = graph.routes.find((route) => route.id === "front")!;
    expect(front.steps[0]!.options).toMatchObject({
      name: "http.request.header.authorization",
      expression: "[redacted]",
    });
  });
});
