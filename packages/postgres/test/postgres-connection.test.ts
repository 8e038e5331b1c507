import { createContext, groupedBodies, type RouteContext } from "@routekit/core";
import { connectPostgres, type PostgresStore, PostgresStoreError } from "@routekit/postgres";
import { closedPort, LoopbackProxy, waitFor } from "@routekit/test-support";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  dropTables,
  inspector,
  postgresAvailable,
  postgresConnection,
  postgresHost,
  postgresPort,
  uniquePrefix,
} from "./support/postgres-server.js";

const count = (kind: string): number =>
  process.getActiveResourcesInfo().filter((name) => name === kind).length;

describe("connectPostgres: a server that is not there", () => {
  it("fails with CONNECTION_FAILED naming host and port, and leaves no socket behind", async () => {
    const port = await closedPort();
    const before = count("TCPSocketWrap");
    const attempt = connectPostgres({ host: "127.0.0.1", port, connectTimeoutMs: 2000 });
    await expect(attempt).rejects.toBeInstanceOf(PostgresStoreError);
    await expect(attempt).rejects.toMatchObject({ code: "CONNECTION_FAILED" });
    await expect(attempt).rejects.toThrow(
      new RegExp(
        `could not connect to PostgreSQL at 127\\.0\\.0\\.1:${port} \\(database 'postgres', user 'postgres'\\): .*ECONNREFUSED`,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(count("TCPSocketWrap")).toBeLessThanOrEqual(before);
  });

  it("refuses unknown and malformed options before connecting", async () => {
    await expect(connectPostgres({ hots: "x" } as never)).rejects.toThrow(
      /unknown option 'hots' \(did you mean 'host'\?\) \(expected one of host, port/,
    );
    await expect(connectPostgres({ tablePrefix: "drop table;" })).rejects.toThrow(
      /option 'tablePrefix' must be 1-40 lower-case letters, digits or '_'/,
    );
    await expect(connectPostgres({ migrate: "yes" as never })).rejects.toMatchObject({
      code: "OPTIONS_INVALID",
    });
  });
});

describe.skipIf(!postgresAvailable)("PostgreSQL lost while running", () => {
  const prefix = uniquePrefix("lost");
  let raw: pg.Client;
  let proxy: LoopbackProxy | undefined;
  let store: PostgresStore | undefined;
  let context: RouteContext | undefined;

  beforeAll(async () => {
    raw = await inspector();
  });
  afterEach(async () => {
    await context?.stop();
    await store?.close();
    await proxy?.close();
  });
  afterAll(async () => {
    await dropTables(raw, prefix);
    await raw.end();
  });

  it("fails exchanges while the server is gone, stores and confirms nothing for them, and processes their retries once it is back", async () => {
    proxy = await LoopbackProxy.start({ host: postgresHost, port: postgresPort });
    store = await connectPostgres({
      ...postgresConnection,
      host: "127.0.0.1",
      port: proxy.port,
      tablePrefix: prefix,
      migrate: true,
      connectTimeoutMs: 1000,
      queryTimeoutMs: 2000,
    });
    const idempotent = store.idempotentRepository("lost");
    const groups = store.aggregationRepository("lost");
    const completed: unknown[] = [];
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .idempotentConsumer("${body.id}", { repository: idempotent })
        .aggregate("${body.order}", { strategy: groupedBodies(), repository: groups, completionSize: 2 })
        .process((exchange) => {
          completed.push(exchange.body);
        }),
    );
    await context.start();
    await context.request("direct:in", { id: "1", order: "a" });

    proxy.cut();
    const whileGone = context.request("direct:in", { id: "2", order: "a" });
    await expect(whileGone).rejects.toMatchObject({ cause: { code: "QUERY_FAILED" } });
    await expect(whileGone).rejects.toThrow(
      /PostgreSQL at 127\.0\.0\.1:\d+, idempotent repository 'lost': claiming key '2' failed/,
    );
    const claimed = await raw.query(
      `SELECT key, state FROM ${prefix}idempotent WHERE repository = 'lost' ORDER BY key`,
    );
    expect(claimed.rows).toEqual([{ key: "1", state: "done" }]);

    proxy.restore();
    await waitFor("the server back", async () => {
      try {
        return (await idempotent.contains("1")) === true;
      } catch {
        return false;
      }
    });
    await context.request("direct:in", { id: "2", order: "a" });
    await context.request("direct:in", { id: "2", order: "a" });
    expect(completed).toEqual([
      [
        { id: "1", order: "a" },
        { id: "2", order: "a" },
      ],
    ]);
  });
});
