import { randomUUID } from "node:crypto";
import { connectPostgres, type PostgresAggregationRepository, type PostgresStore } from "@routekit/postgres";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect } from "vitest";
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
  let name: string;

  beforeAll(async () => {
    raw = await inspector();
  });
  beforeEach(() => {
    name = `orders-${randomUUID().slice(0, 8)}`;
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    stores = [];
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
    async writeForeignGroups() {
      const insert = `INSERT INTO ${prefix}aggregation_group (repository, key, version, data, part_ids) VALUES ($1, $2, 1, $3, $4)`;
      await raw.query(insert, [name, "bad", "{not json", "[]"]);
      await raw.query(insert, [name, "parts", null, '{"a": 1}']);
      return [
        {
          key: "bad",
          failure: `the row of key 'bad' in ${prefix}aggregation_group does not hold a group written by routekit: expected JSON written by routekit, found text that is not JSON: "{not json"`,
        },
        {
          key: "parts",
          failure: { cause: { message: expect.stringMatching(/expected a JSON array of strings/) } },
        },
      ];
    },
    async expectForeignGroupsKept() {
      const kept = await raw.query(
        `SELECT data FROM ${prefix}aggregation_group WHERE repository = $1 AND key = 'bad'`,
        [name],
      );
      expect(kept.rows).toEqual([{ data: "{not json" }]);
    },
  });
});
