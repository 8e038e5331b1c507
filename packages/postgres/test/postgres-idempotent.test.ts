import { createContext, type RouteContext } from "@routekit/core";
import { connectPostgres, type PostgresStore, PostgresStoreError } from "@routekit/postgres";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { idempotentRepositoryContract } from "../../core/test/support/repository-contracts.js";
import {
  dropTables,
  inspector,
  postgresAvailable,
  postgresConnection,
  uniquePrefix,
} from "./support/postgres-server.js";

describe.skipIf(!postgresAvailable)("PostgreSQL idempotent repository", () => {
  const prefix = uniquePrefix("idem");
  let raw: pg.Client;
  let stores: PostgresStore[] = [];
  let contexts: RouteContext[] = [];

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

  const store = async (): Promise<PostgresStore> => {
    const connected = await connectPostgres({ ...postgresConnection, tablePrefix: prefix, migrate: true });
    stores.push(connected);
    return connected;
  };

  idempotentRepositoryContract({
    errorClass: PostgresStoreError,
    repository: async (name, options) => (await store()).idempotentRepository(name, options),
    async expectProcessed(name, key) {
      const rows = await raw.query(
        `SELECT state, token FROM ${prefix}idempotent WHERE repository = $1 AND key = $2`,
        [name, key],
      );
      expect(rows.rows).toEqual([{ state: "done", token: null }]);
    },
    async expiresIn(name, key) {
      const rows = await raw.query<{ expires_at: string | null }>(
        `SELECT expires_at FROM ${prefix}idempotent WHERE repository = $1 AND key = $2`,
        [name, key],
      );
      expect(rows.rows).toHaveLength(1);
      const expiresAt = rows.rows[0]?.expires_at ?? null;
      return expiresAt === null ? undefined : Number(expiresAt) - Date.now();
    },
  });

  it("purges the rows of processed keys once expireAfterMs passed", async () => {
    const repository = (await store()).idempotentRepository("purging", { expireAfterMs: 300 });
    expect(await repository.add("k")).toBe(true);
    await repository.confirm("k");
    expect(await repository.purgeExpired()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await repository.purgeExpired()).toBe(1);
    const rows = await raw.query(`SELECT key FROM ${prefix}idempotent WHERE repository = 'purging'`);
    expect(rows.rows).toEqual([]);
  });

  it("fails the exchange with VALUE_CORRUPT naming the table and key when a row holds a foreign state", async () => {
    const repository = (await store()).idempotentRepository("foreign");
    await raw.query(`ALTER TABLE ${prefix}idempotent DROP CONSTRAINT ${prefix}idempotent_state_check`);
    await raw.query(
      `INSERT INTO ${prefix}idempotent (repository, key, state) VALUES ('foreign', 'odd', 'half-done')`,
    );
    const context = createContext();
    contexts.push(context);
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .idempotentConsumer("${body}", { repository })
        .process(() => {}),
    );
    await context.start();
    const odd = context.request("direct:in", "odd");
    await expect(odd).rejects.toMatchObject({ cause: { code: "VALUE_CORRUPT" } });
    await expect(odd).rejects.toThrow(
      `the row of key 'odd' in ${prefix}idempotent has state "half-done", expected 'claimed' or 'done'`,
    );
    await context.request("direct:in", "fine");
    expect(await repository.contains("fine")).toBe(true);
  });

  it("names migrate() when the tables are missing", async () => {
    const bare = await connectPostgres({ ...postgresConnection, tablePrefix: uniquePrefix("bare") });
    stores.push(bare);
    const attempt = bare.idempotentRepository("none").add("k");
    await expect(attempt).rejects.toMatchObject({ code: "SCHEMA_MISSING" });
    await expect(attempt).rejects.toThrow(/create the tables with migrate\(\)/);
  });
});
