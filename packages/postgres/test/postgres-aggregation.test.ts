import { randomUUID } from "node:crypto";
import { createContext, groupedBodies, type RouteContext } from "@routekit/core";
import { connectPostgres, type PostgresAggregationRepository, type PostgresStore } from "@routekit/postgres";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { aggregationRepositoryContract } from "../../core/test/support/repository-contracts.js";
import {
  dropTables,
  inspector,
  postgresAvailable,
  postgresConnection,
  uniquePrefix,
} from "./support/postgres-server.js";

describe.skipIf(!postgresAvailable)("PostgreSQL aggregation repository", () => {
  const prefix = uniquePrefix("agg");
  let raw: pg.Client;
  let stores: PostgresStore[] = [];
  let contexts: RouteContext[] = [];
  let name: string;

  beforeAll(async () => {
    raw = await inspector();
  });
  beforeEach(() => {
    name = `orders-${randomUUID().slice(0, 8)}`;
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

  aggregationRepositoryContract({
    repository: () => repository(),
    completedCount: () => completedRows(),
  });

  it("fails the exchange with VALUE_CORRUPT naming the table and key when a row holds a foreign value", async () => {
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
