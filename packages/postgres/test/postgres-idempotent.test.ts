import { createContext, type RouteContext } from "@routekit/core";
import { connectPostgres, type PostgresStore, PostgresStoreError } from "@routekit/postgres";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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

  it("lets exactly one of two instances claim a key; a claimed key fails the other, a confirmed one is a duplicate", async () => {
    const first = (await store()).idempotentRepository("orders");
    const second = (await store()).idempotentRepository("orders");
    const claims = await Promise.allSettled([first.add("o-1"), second.add("o-1")]);
    expect(claims.filter((claim) => claim.status === "fulfilled" && claim.value === true)).toHaveLength(1);
    const refused = claims.filter((claim) => claim.status === "rejected") as PromiseRejectedResult[];
    expect(refused).toHaveLength(1);
    expect(refused[0]?.reason).toBeInstanceOf(PostgresStoreError);
    expect(refused[0]?.reason).toMatchObject({ code: "KEY_IN_PROGRESS" });
    const winner = claims[0]?.status === "fulfilled" ? first : second;
    await winner.confirm("o-1");
    expect(await first.add("o-1")).toBe(false);
    expect(await second.add("o-1")).toBe(false);
    const rows = await raw.query(`SELECT state, token FROM ${prefix}idempotent WHERE repository = 'orders'`);
    expect(rows.rows).toEqual([{ state: "done", token: null }]);
  });

  it("processes each key once in a route, releases a key whose processing failed and lets its retry through", async () => {
    const repository = (await store()).idempotentRepository("route");
    const processed: string[] = [];
    let failNext = true;
    const context = createContext();
    contexts.push(context);
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .idempotentConsumer("${body.id}", { repository })
        .process((exchange) => {
          const id = (exchange.body as { id: string }).id;
          if (id === "b" && failNext) {
            failNext = false;
            throw new Error("downstream refused b");
          }
          processed.push(id);
        }),
    );
    await context.start();
    await context.request("direct:in", { id: "a" });
    await context.request("direct:in", { id: "a" });
    await expect(context.request("direct:in", { id: "b" })).rejects.toThrow(/downstream refused b/);
    expect(await repository.contains("b")).toBe(false);
    await context.request("direct:in", { id: "b" });
    await context.request("direct:in", { id: "b" });
    expect(processed).toEqual(["a", "b"]);
  });

  it("frees a claim whose consumer died once claimTimeoutMs passed; the late confirm fails with CLAIM_LOST", async () => {
    const dying = (await store()).idempotentRepository("crash", { claimTimeoutMs: 300 });
    const survivor = (await store()).idempotentRepository("crash", { claimTimeoutMs: 300 });
    expect(await dying.add("k")).toBe(true);
    await expect(survivor.add("k")).rejects.toMatchObject({ code: "KEY_IN_PROGRESS" });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await survivor.add("k")).toBe(true);
    await expect(dying.confirm("k")).rejects.toMatchObject({ code: "CLAIM_LOST" });
    await survivor.confirm("k");
    expect(await dying.add("k")).toBe(false);
  });

  it("forgets processed keys after expireAfterMs and purges their rows", async () => {
    const repository = (await store()).idempotentRepository("expiring", { expireAfterMs: 300 });
    expect(await repository.add("k")).toBe(true);
    await repository.confirm("k");
    expect(await repository.add("k")).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await repository.contains("k")).toBe(false);
    expect(await repository.purgeExpired()).toBe(1);
    expect(await repository.add("k")).toBe(true);
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
