import type { ConsoleGraph, ExchangeRecord, ExchangeSummary, LiveRouteCounters } from "@routekit/console";
import { consoleOf } from "@routekit/console";
import type { RouteContext } from "@routekit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, getWithToken, startOrderContext, TOKEN } from "./support/order-context.js";
import { firstSnapshot, rawRequest } from "./support/raw-request.js";

let context: RouteContext;
let url: string;

beforeAll(async () => {
  ({ context, url } = await startOrderContext({
    record: "always",
    bufferSizes: { exchanges: 5, snapshotChars: 64 },
  }));
});
afterAll(async () => {
  await context.stop();
});

const countersOf = async (routeId: string) =>
  (await getWithToken<LiveRouteCounters[]>(url, "/api/counters")).body.find(
    (route) => route.routeId === routeId,
  )!;

describe("the console's API", () => {
  it("draws the routes: steps with their nested blocks, endpoints and the edge between routes", async () => {
    const { status, body: graph } = await getWithToken<ConsoleGraph>(url, "/api/graph");
    expect(status).toBe(200);
    expect(graph.routes.map((route) => route.id)).toEqual(["orders", "books"]);
    const orders = graph.routes[0]!;
    expect(orders.from).toBe("direct:orders");
    expect(orders.steps.map((step) => step.label)).toEqual([
      "#1 setHeader(kind)",
      "#2 choice",
      "#3 to(mock:done)",
    ]);
    const choice = orders.steps[1]!;
    expect(choice.blocks.map((block) => block.name)).toEqual(["when #1", "otherwise"]);
    expect(choice.blocks[0]!.options.predicate).toBe("${header.kind} == 'book'");
    expect(choice.blocks[0]!.steps[0]!.options.uri).toBe("direct:books");
    expect(choice.blocks[0]!.steps[0]!.path).toMatch(/to\(direct:books\)$/);
    expect(graph.edges).toContainEqual({
      from: "route:orders",
      to: "route:books",
      label: "direct:books",
      kind: "message",
    });
    expect(graph.endpoints.map((endpoint) => endpoint.uri).sort()).toEqual(["mock:done", "mock:other"]);
  });

  it("counts exchanges and failures per route and per step", async () => {
    const before = await countersOf("books");
    await context.request("direct:orders", { kind: "book" });
    await expect(context.request("direct:orders", { kind: "book", fail: true })).rejects.toThrow(
      "no such book",
    );
    const books = await countersOf("books");
    expect(books.exchanges - before.exchanges).toBe(2);
    expect(books.failures - before.failures).toBe(1);
    expect(books.inflight).toBe(0);
    expect(books.p50).toBeGreaterThanOrEqual(0);
    const step = books.steps.find((candidate) => candidate.path === "#1 process")!;
    expect(step.failures).toBeGreaterThanOrEqual(1);
    expect(step.inflight).toBe(0);
  });

  it("records an exchange as a timeline of its steps, with bounded snapshots and redacted headers", async () => {
    const secretBody = { kind: "book", note: "x".repeat(500) };
    await context.request("direct:orders", secretBody, {
      authorization: "Bearer abc",
      "x-secret": "s3",
      visible: "yes",
    });
    let summary: ExchangeSummary | undefined;
    await eventually(async () => {
      const list = await getWithToken<{ exchanges: ExchangeSummary[] }>(url, "/api/exchanges?q=visible");
      summary = list.body.exchanges.find((exchange) => exchange.status === "completed");
      return summary !== undefined;
    });
    const { body: record } = await getWithToken<ExchangeRecord>(url, `/api/exchanges/${summary!.id}`);
    expect(record.routeId).toBe("orders");
    expect(record.input.headers).toMatchObject({
      authorization: "[redacted]",
      "x-secret": "[redacted]",
      visible: "yes",
    });
    expect(record.input.truncated).toBe(true);
    expect(record.input.body.length).toBeLessThanOrEqual(65);
    const paths = record.steps.map((step) => `${step.routeId} ${step.path}`);
    expect(paths).toContain("orders #1 setHeader(kind)");
    expect(paths).toContain("books #1 process");
    const books = record.steps.find((step) => step.routeId === "books")!;
    expect(books.after?.headers.shelf).toBe("B7");
    expect(books.startMs).toBeGreaterThanOrEqual(0);
    expect(record.output?.headers.kind).toBe("book");
  });

  it("snapshots a huge, a circular and a binary body without copying them whole", async () => {
    const circular: Record<string, unknown> = { kind: "other", marker: "circle-1" };
    circular.self = circular;
    await context.request("direct:orders", circular);
    await context.request("direct:orders", { kind: "other", marker: "huge-1", big: "x".repeat(5_000_000) });
    const found = async (query: string) => {
      const list = await getWithToken<{ exchanges: ExchangeSummary[] }>(url, `/api/exchanges?q=${query}`);
      const id = list.body.exchanges[0]?.id;
      return id === undefined
        ? undefined
        : (await getWithToken<ExchangeRecord>(url, `/api/exchanges/${id}`)).body;
    };
    const circle = await found("serialisable");
    expect(circle?.input.body).toMatch(/^\(not serialisable: .*circular/i);
    expect(circle?.status).toBe("completed");
    const huge = await found("larger%20than");
    expect(huge?.input).toMatchObject({ body: "(larger than the snapshot size)", truncated: true });
    await context.request("direct:orders", Object.assign(new Uint8Array(10_000).fill(65), { kind: "other" }));
    const bytes = await found("AAAA");
    expect(bytes?.input.bodyType).toBe("bytes (10000)");
    expect(bytes?.input.body.length).toBe(64);
  });

  it("shows a body still in its wire form as its bytes, without decoding it", async () => {
    let decodes = 0;
    const text = '{"kind":"other","marker":"wire-1"}';
    const exchange = context.createExchange({
      pattern: "InOut",
      wire: {
        content: Buffer.from(text),
        contentType: "application/json",
        decode: (content) => {
          decodes++;
          return JSON.parse(Buffer.from(content).toString("utf8"));
        },
      },
    });
    await context.endpoint("direct:orders").send(exchange);
    expect(exchange.error).toBeUndefined();
    let record: ExchangeRecord | undefined;
    await eventually(async () => {
      const list = await getWithToken<{ exchanges: ExchangeSummary[] }>(url, "/api/exchanges?q=wire-1");
      const id = list.body.exchanges.find((summary) => summary.status === "completed")?.id;
      if (id !== undefined) record = (await getWithToken<ExchangeRecord>(url, `/api/exchanges/${id}`)).body;
      return record !== undefined;
    });
    expect(record?.input).toMatchObject({
      body: text,
      bodyType: `bytes (${text.length}), not decoded yet (application/json)`,
    });
    // The route read the body (its choice looks at the kind): decoded once, by the route.
    expect(decodes).toBe(1);
    expect(record?.output?.bodyType).toBe("object");
  });

  it("keeps only the newest exchanges the buffer holds", async () => {
    for (let index = 0; index < 8; index++) await context.request("direct:orders", { kind: "other", index });
    await eventually(async () => {
      const list = await getWithToken<{ total: number; exchanges: ExchangeSummary[] }>(url, "/api/exchanges");
      return (
        list.body.total === 5 && list.body.exchanges.every((exchange) => exchange.status === "completed")
      );
    });
    const failed = await getWithToken<{ total: number }>(url, "/api/exchanges?status=failed");
    expect(failed.body.total).toBe(0);
  });

  it("streams counters and exchanges to pages over server-sent events", async () => {
    const snapshot = (await firstSnapshot(`${url}api/events?token=${TOKEN}`)) as {
      counters: LiveRouteCounters[];
      exchanges: ExchangeSummary[];
    };
    expect(snapshot.counters.map((route) => route.routeId)).toEqual(["orders", "books"]);
    expect(snapshot.exchanges.length).toBeGreaterThan(0);
  });

  it("stops and starts a route", async () => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    const stopped = await fetch(`${url}api/routes/books/stop`, { method: "POST", headers });
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toEqual({ routeId: "books", state: "stopped" });
    await expect(context.request("direct:orders", { kind: "book" })).rejects.toThrow();
    const started = await fetch(`${url}api/routes/books/start`, { method: "POST", headers });
    expect(await started.json()).toEqual({ routeId: "books", state: "started" });
    await expect(context.request("direct:orders", { kind: "book" })).resolves.toBeDefined();
  });
});

describe("hostile requests", () => {
  it("refuses a missing or wrong token everywhere, and a refused stop changes nothing", async () => {
    for (const path of [
      "/",
      "/api/graph",
      "/api/events",
      "/assets/console.js",
      `/api/events?token=wrong-${TOKEN}`,
    ]) {
      const response = await rawRequest(new URL(path, url).href);
      expect(response.status, path).toBe(401);
      expect(JSON.parse(response.body)).toEqual({ error: "missing or wrong console token" });
    }
    const stop = await fetch(`${url}api/routes/orders/stop`, {
      method: "POST",
      headers: { authorization: "Bearer nope-nope-nope" },
    });
    expect(stop.status).toBe(401);
    expect(context.routes().find((route) => route.id === "orders")?.state).toBe("started");
  });

  it("answers bad ids, bad queries and wrong methods with a clear error", async () => {
    const cases: Array<[string, string, number, RegExp]> = [
      ["GET", "/api/exchanges/no-such-id", 404, /no recorded exchange 'no-such-id'/],
      ["GET", "/api/agent-runs/run-999", 404, /no agent run/],
      ["GET", "/api/exchanges/%E0%A4%A", 400, /valid URL encoding/],
      ["GET", `/api/exchanges?q=${"a".repeat(201)}`, 400, /at most 200 characters/],
      ["GET", "/api/exchanges?status=lost", 400, /status must be/],
      ["GET", "/api/exchanges?limit=-3", 400, /limit must be/],
      ["GET", `/api/exchanges?q=${"a".repeat(5000)}`, 414, /at most 4096/],
      ["POST", "/api/routes/nope/stop", 404, /no route 'nope'/],
      ["GET", "/api/routes/orders/stop", 405, /answers POST only/],
      ["DELETE", "/api/graph", 405, /answers GET only/],
      ["GET", "/etc/passwd", 404, /no such page/],
    ];
    for (const [method, path, status, message] of cases) {
      const separator = path.includes("?") ? "&" : "?";
      const response = await rawRequest(url, { method, path: `${path}${separator}token=${TOKEN}` });
      expect(response.status, `${method} ${path.slice(0, 60)}`).toBe(status);
      expect(JSON.parse(response.body).error).toMatch(message);
    }
    expect(context.routes().every((route) => route.state === "started")).toBe(true);
  });

  it("refuses a foreign Host (DNS rebinding) and a cross-origin stop", async () => {
    const port = consoleOf(context)!.port!;
    const rebinding = await rawRequest(url, {
      path: `/api/graph?token=${TOKEN}`,
      headers: { host: `attacker.example:${port}` },
    });
    expect(rebinding.status).toBe(403);
    const crossOrigin = await rawRequest(url, {
      method: "POST",
      path: `/api/routes/orders/stop?token=${TOKEN}`,
      headers: { origin: "http://attacker.example" },
    });
    expect(crossOrigin.status).toBe(403);
    expect(context.routes().find((route) => route.id === "orders")?.state).toBe("started");
  });
});
