import { createContext, type RouteContext } from "@routekit/core";
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { HTTP_HEADERS, HttpError, HttpOperationFailedError, httpPlugin } from "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

let remote: LoopbackServer | undefined;
let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await remote?.close();
  context = undefined;
  remote = undefined;
});

async function started(options: Parameters<typeof httpPlugin>[0] = {}): Promise<RouteContext> {
  context = createContext({ logLevel: "error" });
  context.use(httpPlugin(options));
  await context.start();
  return context;
}

describe("http client producer", () => {
  it("GETs without a body and parses a JSON reply; sets http.status and http.reply.headers", async () => {
    remote = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "x-remote": "yes" });
      response.end(JSON.stringify({ items: [1, 2] }));
    });
    const running = await started();
    const exchange = await running.requestExchange(`${remote.url}/items`, {
      headers: {
        "http.request.header.Authorization": "Bearer t",
        "http.request.query": { page: 2, tag: ["a", "b"] },
        "llm.secret": "never sent",
        "http.header.x-incoming": "never sent",
      },
    });
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toEqual({ items: [1, 2] });
    expect(exchange.headers[HTTP_HEADERS.status]).toBe(200);
    expect(exchange.headers[HTTP_HEADERS.replyHeaders]).toMatchObject({ "x-remote": "yes" });
    const seen = remote.seen[0]!;
    expect(seen.method).toBe("GET");
    expect(seen.url).toBe("/items?page=2&tag=a&tag=b");
    expect(seen.headers.authorization).toBe("Bearer t");
    expect(seen.headers["llm.secret"]).toBeUndefined();
    expect(seen.headers["x-incoming"]).toBeUndefined();
  });

  it("POSTs an object body as JSON by default and reads a text reply", async () => {
    remote = await startLoopbackServer((request, response) => {
      response.writeHead(201, { "content-type": "text/plain" });
      response.end(`got ${request.headers["content-type"]} ${request.body}`);
    });
    const running = await started();
    const reply = await running.request(`${remote.url}/orders`, { id: 7 });
    expect(reply).toBe('got application/json; charset=utf-8 {"id":7}');
    expect(remote.seen[0]!.method).toBe("POST");
  });

  it("uses httpMethod when given, in a route", async () => {
    remote = await startLoopbackServer((request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(`${request.method} ${request.body}`);
    });
    const running = await started();
    await running.addRoutes((r) => {
      r.from("direct:put").to(`${remote!.url}/x?httpMethod=PUT&timeout=5000`);
    });
    expect(await running.request("direct:put", "text body")).toBe("PUT text body");
  });

  it("fails on a non-2xx reply with status and a body excerpt, or passes it on when not throwing", async () => {
    remote = await startLoopbackServer((_request, response) => {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ message: "no such order", padding: "p".repeat(2_000) }));
    });
    const running = await started();
    const failed = await running.requestExchange(`${remote.url}/orders/9`);
    const error = failed.error;
    expect(error).toBeInstanceOf(HttpOperationFailedError);
    const operation = error as HttpOperationFailedError;
    expect(operation.status).toBe(404);
    expect(operation.url).toBe(`${remote.url}/orders/9`);
    expect(operation.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/orders\/9 answered HTTP 404: \{"message":"no such order"/,
    );
    expect(operation.bodyExcerpt.length).toBeLessThanOrEqual(513);

    const passed = await running.requestExchange(`${remote.url}/orders/9?throwExceptionOnFailure=false`);
    expect(passed.error).toBeUndefined();
    expect(passed.headers[HTTP_HEADERS.status]).toBe(404);
    expect(passed.body).toMatchObject({ message: "no such order" });
  });

  it("honours okStatusCodeRange", async () => {
    remote = await startLoopbackServer((_request, response) => {
      response.writeHead(302, { location: "/elsewhere" });
      response.end();
    });
    const running = await started();
    const failed = await running.requestExchange(`${remote.url}/moved`);
    expect((failed.error as HttpOperationFailedError).redirectLocation).toBe("/elsewhere");
    const accepted = await running.requestExchange(`${remote.url}/moved?okStatusCodeRange=200-399`);
    expect(accepted.error).toBeUndefined();
    expect(accepted.headers[HTTP_HEADERS.status]).toBe(302);
  });

  it("stops at the timeout with HTTP_TIMEOUT", async () => {
    remote = await startLoopbackServer(() => {
      // never answers
    });
    const running = await started();
    const exchange = await running.requestExchange(`${remote.url}/slow?timeout=150`);
    expect(exchange.error).toBeInstanceOf(HttpError);
    expect((exchange.error as HttpError).code).toBe("HTTP_TIMEOUT");
    expect(exchange.error?.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/slow: no complete response within 150 ms \(timeout\)$/,
    );
  });

  it("aborts the call when the exchange's signal fires", async () => {
    remote = await startLoopbackServer(() => {
      // never answers
    });
    const running = await started();
    const exchange = await running.requestExchange(`${remote.url}/slow`, { timeoutMs: 100 });
    expect((exchange.error as HttpError).message).toMatch(/: aborted with the exchange$/);
  });

  it("refuses a response larger than maxResponseBytes, and a JSON reply that is not JSON", async () => {
    remote = await startLoopbackServer((request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(request.url?.startsWith("/big") ? JSON.stringify("x".repeat(5_000)) : "{oops");
    });
    const running = await started();
    const big = await running.requestExchange(`${remote.url}/big?maxResponseBytes=1000`);
    expect((big.error as HttpError).code).toBe("HTTP_RESPONSE_TOO_LARGE");
    const broken = await running.requestExchange(`${remote.url}/broken`);
    expect((broken.error as HttpError).code).toBe("HTTP_RESPONSE_INVALID");
    expect(broken.error?.message).toMatch(
      /the response says application\/json but is not valid JSON .*: \{oops$/,
    );
  });

  it("goes through the injected dispatcher", async () => {
    remote = await startLoopbackServer((_request, response) => {
      response.end("ok");
    });
    let dispatched = 0;
    const agent = new Agent();
    const dispatcher = agent.compose((dispatch) => (options, handler) => {
      dispatched++;
      return dispatch(options, handler);
    });
    const running = await started({ dispatcher });
    expect(await running.request(`${remote.url}/x`)).toBe("ok");
    expect(dispatched).toBe(1);
    await agent.close();
  });

  it("reports a refused connection with the method and URL, never the query", async () => {
    remote = await startLoopbackServer(() => undefined);
    const url = remote.url;
    await remote.close();
    remote = undefined;
    const running = await started();
    const exchange = await running.requestExchange(url + "/x", {
      headers: { "http.request.query": { key: "secret-value" } },
    });
    expect((exchange.error as HttpError).code).toBe("HTTP_REQUEST_FAILED");
    expect(exchange.error?.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/x: .*ECONNREFUSED/);
    expect(exchange.error?.message).not.toContain("secret-value");
  });

  it("refuses bad outgoing headers and query values, naming the header", async () => {
    const running = await started();
    const header = await running.requestExchange("http://127.0.0.1:9/x", {
      headers: { "http.request.header.x-data": { nested: true } },
    });
    expect(header.error?.message).toBe(
      "Endpoint 'http://127.0.0.1:9/x': header 'http.request.header.x-data' must be a string, number, boolean or string[] (found object)",
    );
    const query = await running.requestExchange("http://127.0.0.1:9/x", {
      headers: { "http.request.query": [1, 2] },
    });
    expect(query.error?.message).toBe(
      "Endpoint 'http://127.0.0.1:9/x': header 'http.request.query' must be an object or text like 'a=1&b=2' (found an array)",
    );
  });
});
