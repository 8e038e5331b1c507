import { randomUUID } from "node:crypto";
import { createContext, groupedBodies, type RouteContext } from "@routekit/core";
import { connectPostgres, type PostgresAggregationRepository, type PostgresStore } from "@routekit/postgres";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "./support/loopback-proxy.js";
import {
  dropTables,
  inspector,
  postgresAvailable,
  postgresConnection,
  uniquePrefix,
} from "./support/postgres-server.js";

interface Part {
  readonly order: string;
  readonly line: number;
}

describe.skipIf(!postgresAvailable)("PostgreSQL aggregation repository", () => {
  const prefix = uniquePrefix("agg");
  let raw: pg.Client;
  let stores: PostgresStore[] = [];
  let contexts: RouteContext[] = [];
  let name: string;

  beforeAll(async () => {
    raw = await inspector();
  });
  afterEach(async () => {
    for (const context of contexts) await context.stop();
    for (const store of stores) await store.close();
    stores = [];
    contexts = [];
  });
  afterAll(async () => {
    await dropTables(raw, prefix);
    await raw.end();
  });

  const repository = async (): Promise<PostgresAggregationRepository> => {
    const store = await connectPostgres({ ...postgresConnection, tablePrefix: prefix, migrate: true });
    stores.push(store);
    return store.aggregationRepository(name);
  };
  const completedRows = async (): Promise<number> =>
    Number(
      (
        await raw.query(`SELECT count(*) AS n FROM ${prefix}aggregation_completed WHERE repository = $1`, [
          name,
        ])
      ).rows[0].n,
    );

  const instance = async (
    completed: unknown[][],
    options: Record<string, unknown> = {},
    rest: (body: unknown[]) => void = () => {},
  ): Promise<RouteContext> => {
    const context = createContext();
    contexts.push(context);
    const shared = await repository();
    await context.addRoutes((r) =>
      r
        .from<Part>("seda:lines?concurrentConsumers=4")
        .aggregate<Part[]>("${body.order}", {
          strategy: groupedBodies<Part>(),
          repository: shared,
          partId: (exchange) => `${(exchange.body as Part).order}/${(exchange.body as Part).line}`,
          ...options,
        })
        .process((exchange) => {
          rest(exchange.body as unknown[]);
          completed.push(exchange.body as unknown[]);
        }),
    );
    await context.start();
    return context;
  };

  it("completes every group exactly once with all its parts when two instances receive the parts", async () => {
    name = `parts-${randomUUID().slice(0, 8)}`;
    const completed: unknown[][] = [];
    const first = await instance(completed, { completionSize: 5 });
    const second = await instance(completed, { completionSize: 5 });
    const sends: Promise<void>[] = [];
    for (let order = 0; order < 20; order++) {
      for (let line = 0; line < 5; line++) {
        sends.push(
          ((order + line) % 2 === 0 ? first : second).send("seda:lines", { order: `o${order}`, line }),
        );
      }
    }
    await Promise.all(sends);
    await waitFor("20 completed orders", () => completed.length >= 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(completed).toHaveLength(20);
    for (const group of completed) {
      expect((group as Part[]).map((part) => part.line).sort()).toEqual([0, 1, 2, 3, 4]);
    }
    expect(new Set(completed.map((group) => (group as Part[])[0]?.order)).size).toBe(20);
    expect(await completedRows()).toBe(0);
  });

  it("adds a part delivered again only once, also after its group completed", async () => {
    name = `dupes-${randomUUID().slice(0, 8)}`;
    const completed: unknown[][] = [];
    const context = await instance(completed, { completionSize: 2 });
    await context.send("seda:lines", { order: "a", line: 1 });
    await context.send("seda:lines", { order: "a", line: 1 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await context.send("seda:lines", { order: "a", line: 2 });
    await waitFor("order a", () => completed.length === 1);
    await context.send("seda:lines", { order: "a", line: 2 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(completed).toEqual([
      [
        { order: "a", line: 1 },
        { order: "a", line: 2 },
      ],
    ]);
  });

  it("completes a group by timeout on another instance after the one that received its parts stopped", async () => {
    name = `timeout-${randomUUID().slice(0, 8)}`;
    const completed: unknown[][] = [];
    const options = { completionTimeout: 400, completionTimeoutCheckInterval: 100 };
    const receiver = await instance(completed, options);
    await receiver.send("seda:lines", { order: "t", line: 1 });
    await receiver.send("seda:lines", { order: "t", line: 2 });
    const reader = await repository();
    await waitFor("two parts stored", async () => (await reader.read("t"))?.partIds.length === 2);
    await receiver.stop();
    expect(completed).toEqual([]);
    await instance(completed, options);
    await waitFor("the timed-out group", () => completed.length === 1, 10_000);
    expect(completed[0]).toHaveLength(2);
  });

  it("recovers a group completed by an instance that died before processing it", async () => {
    name = `recover-${randomUUID().slice(0, 8)}`;
    const shared = await repository();
    const stored = { body: [{ order: "c", line: 1 }], headers: {}, properties: {} };
    const write = { version: undefined, exchange: stored, partIds: ["c/1"], timeoutAt: undefined };
    expect(await shared.complete("c", randomUUID(), write)).toBe(true);
    expect(await shared.complete("c", randomUUID(), write)).toBe(false);
    const completed: unknown[][] = [];
    await instance(completed, { completionSize: 5, recovery: { interval: 200 } });
    await waitFor("the recovered group", () => completed.length === 1, 10_000);
    expect(completed[0]).toEqual([{ order: "c", line: 1 }]);
    await waitFor("the completion confirmed", async () => (await completedRows()) === 0);
  });

  it("retries a group whose processing fails and moves it to the dead letter after maximumRedeliveries", async () => {
    name = `dead-${randomUUID().slice(0, 8)}`;
    let attempts = 0;
    const context = await instance(
      [],
      { completionSize: 1, recovery: { interval: 150, maximumRedeliveries: 2, deadLetterUri: "mock:dead" } },
      () => {
        attempts++;
        throw new Error("the warehouse refuses every order");
      },
    );
    const dead = context.endpoint("mock:dead");
    dead.expectedMessageCount(1);
    await context.send("seda:lines", { order: "d", line: 1 });
    await dead.assertIsSatisfied(10_000);
    expect(attempts).toBe(3);
    expect(dead.received[0]?.body).toEqual([{ order: "d", line: 1 }]);
    await waitFor("nothing left to recover", async () => (await completedRows()) === 0);
  });

  it("fails the exchange with VALUE_CORRUPT naming the table and key when a row holds a foreign value", async () => {
    name = `corrupt-${randomUUID().slice(0, 8)}`;
    const context = createContext();
    contexts.push(context);
    const shared = await repository();
    const completed: unknown[] = [];
    await context.addRoutes((r) =>
      r
        .from("direct:lines")
        .aggregate("${body.order}", { strategy: groupedBodies(), repository: shared, completionSize: 2 })
        .process((exchange) => {
          completed.push(exchange.body);
        }),
    );
    await context.start();
    const insert = `INSERT INTO ${prefix}aggregation_group (repository, key, version, data, part_ids) VALUES ($1, $2, 1, $3, $4)`;
    await raw.query(insert, [name, "bad", "{not json", "[]"]);
    await raw.query(insert, [name, "parts", null, '{"a": 1}']);
    await expect(context.request("direct:lines", { order: "bad" })).rejects.toThrow(
      `the row of key 'bad' in ${prefix}aggregation_group does not hold a group written by routekit: expected JSON written by routekit, found text that is not JSON: "{not json"`,
    );
    await expect(context.request("direct:lines", { order: "parts" })).rejects.toMatchObject({
      cause: { code: "VALUE_CORRUPT", message: expect.stringMatching(/expected a JSON array of strings/) },
    });
    await context.request("direct:lines", { order: "fine" });
    await context.request("direct:lines", { order: "fine" });
    expect(completed).toEqual([[{ order: "fine" }, { order: "fine" }]]);
    const kept = await raw.query(
      `SELECT data FROM ${prefix}aggregation_group WHERE repository = $1 AND key = 'bad'`,
      [name],
    );
    expect(kept.rows).toEqual([{ data: "{not json" }]);
  });
});
