import { createContext, EFFECT_KEY_HEADER, type RouteContext, RouteStepError } from "@routekit/core";
import {
  connectPostgres,
  type PostgresStore,
  PostgresStoreError,
  postgresTransaction,
} from "@routekit/postgres";
import { waitFor } from "@routekit/test-support";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  dropTables,
  inspector,
  postgresAvailable,
  postgresConnection,
  uniquePrefix,
} from "./support/postgres-server.js";

interface Order {
  readonly id: string;
  readonly fail?: boolean;
}

/** Gates not opened by a failed test; afterEach opens them so no exchange stays held. */
const gates: Array<() => void> = [];

/** A promise with its resolve function outside, to hold an exchange inside its transaction. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  gates.push(open);
  return { promise, open };
}

/** What a request failed with: the store's error inside the route's RouteStepError. */
async function failure(request: Promise<unknown>): Promise<PostgresStoreError> {
  const error = await request.then(
    () => new Error("the request succeeded, expected it to fail"),
    (caught: unknown) => caught,
  );
  const cause = error instanceof RouteStepError ? error.cause : error;
  if (!(cause instanceof PostgresStoreError)) throw error;
  return cause;
}

describe.skipIf(!postgresAvailable)("PostgreSQL transacted idempotent repository and outbox", () => {
  const prefix = uniquePrefix("tx");
  const effects = `${prefix}effects`;
  let raw: pg.Client;
  let stores: PostgresStore[] = [];
  let contexts: RouteContext[] = [];

  beforeAll(async () => {
    raw = await inspector();
    await raw.query(`CREATE TABLE ${effects} (order_id text NOT NULL, context text NOT NULL)`);
  });
  afterEach(async () => {
    for (const open of gates.splice(0)) open();
    for (const context of contexts) await context.stop({ timeoutMs: 2000 }).catch(() => {});
    for (const store of stores) await store.close();
    stores = [];
    contexts = [];
    await raw.query(`DELETE FROM ${effects}`);
    await raw.query(`DELETE FROM ${prefix}idempotent`);
    await raw.query(`DELETE FROM ${prefix}outbox`);
  });
  afterAll(async () => {
    await dropTables(raw, prefix);
    await raw.query(`DROP TABLE IF EXISTS ${effects}`);
    await raw.end();
  });

  const store = async (options: { maxConnections?: number; connectTimeoutMs?: number } = {}) => {
    const connected = await connectPostgres({
      ...postgresConnection,
      ...options,
      tablePrefix: prefix,
      migrate: true,
    });
    stores.push(connected);
    return connected;
  };
  const context = (): RouteContext => {
    const created = createContext();
    contexts.push(created);
    return created;
  };
  const effectRows = async (): Promise<Array<{ order_id: string; context: string }>> =>
    (await raw.query(`SELECT order_id, context FROM ${effects} ORDER BY order_id`)).rows;
  const keyRows = async (): Promise<Array<{ key: string; state: string }>> =>
    (await raw.query(`SELECT key, state FROM ${prefix}idempotent ORDER BY key`)).rows;

  /** A route whose effect is an insert in the exchange's transaction; waits for `hold` when given. */
  const addOrderRoute = async (
    target: RouteContext,
    repository: ReturnType<PostgresStore["transactedIdempotentRepository"]>,
    name: string,
    hold?: () => Promise<void>,
  ) => {
    await target.addRoutes((r) => {
      r.from<Order>("direct:orders")
        .idempotentConsumer("${body.id}", { repository })
        .process(async (exchange) => {
          await postgresTransaction(exchange).query(
            `INSERT INTO ${effects} (order_id, context) VALUES ($1, $2)`,
            [exchange.body.id, name],
          );
          await hold?.();
          if (exchange.body.fail === true)
            throw new Error(`order ${exchange.body.id} failed after its insert`);
        })
        .to("outbox:direct:published");
    });
  };

  it("commits the key with the route's insert, and a duplicate does not write again", async () => {
    const postgres = await store();
    const target = context();
    target.use(postgres.outbox());
    await addOrderRoute(target, postgres.transactedIdempotentRepository("orders"), "a");
    await target.addRoutes((r) => r.from("direct:published").to("mock:published"));
    await target.start();
    await target.request("direct:orders", { id: "o1" });
    await target.request("direct:orders", { id: "o1" });
    await target.request("direct:orders", { id: "o2" });
    expect(await effectRows()).toEqual([
      { order_id: "o1", context: "a" },
      { order_id: "o2", context: "a" },
    ]);
    expect(await keyRows()).toEqual([
      { key: "o1", state: "done" },
      { key: "o2", state: "done" },
    ]);
    expect(await postgres.transactedIdempotentRepository("orders").contains("o1")).toBe(true);
    expect(await postgres.transactedIdempotentRepository("orders").contains("o3")).toBe(false);
  });

  it("rolls back key and insert when the block fails, so the redelivery runs once", async () => {
    const postgres = await store();
    const target = context();
    target.use(postgres.outbox({ pollIntervalMs: 20 }));
    await addOrderRoute(target, postgres.transactedIdempotentRepository("orders"), "a");
    const published = target.endpoint("mock:published");
    await target.addRoutes((r) => r.from("direct:published").to("mock:published"));
    await target.start();
    await expect(target.request("direct:orders", { id: "o1", fail: true })).rejects.toThrow(
      "order o1 failed after its insert",
    );
    expect(await effectRows()).toEqual([]);
    expect(await keyRows()).toEqual([]);
    expect(Number((await raw.query(`SELECT count(*) AS n FROM ${prefix}outbox`)).rows[0].n)).toBe(0);
    // The redelivery of the same message runs once; a further duplicate is dropped.
    await target.request("direct:orders", { id: "o1" });
    await target.request("direct:orders", { id: "o1" });
    expect(await effectRows()).toEqual([{ order_id: "o1", context: "a" }]);
    await waitFor("the committed message published", () => published.received.length === 1, 5000);
    // The failed attempt's message was never published.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(published.received.map((exchange) => exchange.body)).toEqual([{ id: "o1" }]);
  });

  it("publishes through the outbox only after the commit, with the row id as effect key", async () => {
    const postgres = await store();
    const target = context();
    target.use(postgres.outbox({ pollIntervalMs: 20 }));
    const held = gate();
    let entered = false;
    await addOrderRoute(target, postgres.transactedIdempotentRepository("orders"), "a", async () => {
      entered = true;
      await held.promise;
    });
    const published = target.endpoint("mock:published");
    await target.addRoutes((r) => r.from("direct:published").to("mock:published"));
    await target.start();
    const reply = target.request("direct:orders", { id: "o1" }, { customer: "c7" });
    await waitFor("the insert done", () => entered, 5000);
    // Held after the insert: nothing committed, nothing visible, nothing published.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await effectRows()).toEqual([]);
    expect(await keyRows()).toEqual([]);
    expect(published.received).toEqual([]);
    held.open();
    await reply;
    await waitFor("the message published", () => published.received.length === 1, 5000);
    const sent = published.received[0];
    expect(sent?.body).toEqual({ id: "o1" });
    expect(sent?.headers.customer).toBe("c7");
    expect(String(sent?.headers[EFFECT_KEY_HEADER])).toMatch(/^outbox:[0-9a-f-]{36}$/);
    await waitFor(
      "the sent row deleted",
      async () => Number((await raw.query(`SELECT count(*) AS n FROM ${prefix}outbox`)).rows[0].n) === 0,
      5000,
    );
  });

  it("makes a second context wait for the key's open transaction, then drops its duplicate", async () => {
    const first = await store();
    const second = await store();
    const a = context();
    const b = context();
    const fast = context();
    for (const target of [a, b, fast]) target.use((target === a ? first : second).outbox());
    const held = gate();
    let entered = false;
    await addOrderRoute(a, first.transactedIdempotentRepository("orders"), "a", async () => {
      entered = true;
      await held.promise;
    });
    await addOrderRoute(b, second.transactedIdempotentRepository("orders", { lockTimeoutMs: 4000 }), "b");
    await addOrderRoute(
      fast,
      second.transactedIdempotentRepository("orders", { lockTimeoutMs: 200 }),
      "fast",
    );
    for (const target of [a, b, fast]) {
      await target.addRoutes((r) => r.from("direct:published").to("mock:published"));
      await target.start();
    }
    const inA = a.request("direct:orders", { id: "o1" });
    await waitFor("context a inside its transaction", () => entered, 5000);
    // A short lock wait fails retryably instead of running the effect a second time.
    const failed = await failure(fast.request("direct:orders", { id: "o1" }));
    expect(failed.code).toBe("KEY_IN_PROGRESS");
    expect(failed.retryable).toBe(true);
    expect(failed.message).toContain("key 'o1' is held by another consumer's open transaction");
    // A longer one waits for a's commit and then finds the key processed.
    const inB = b.request("direct:orders", { id: "o1" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    held.open();
    await Promise.all([inA, inB]);
    expect(await effectRows()).toEqual([{ order_id: "o1", context: "a" }]);
  });

  it("runs the key again when the other context's transaction rolled back", async () => {
    const first = await store();
    const second = await store();
    const a = context();
    const b = context();
    a.use(first.outbox());
    b.use(second.outbox());
    const held = gate();
    let entered = false;
    await addOrderRoute(a, first.transactedIdempotentRepository("orders"), "a", async () => {
      entered = true;
      await held.promise;
    });
    await addOrderRoute(b, second.transactedIdempotentRepository("orders"), "b");
    for (const target of [a, b]) {
      await target.addRoutes((r) => r.from("direct:published").to("mock:published"));
      await target.start();
    }
    const inA = a.request("direct:orders", { id: "o1", fail: true }).catch((error: unknown) => error);
    await waitFor("context a inside its transaction", () => entered, 5000);
    const inB = b.request("direct:orders", { id: "o1" });
    await new Promise((resolve) => setTimeout(resolve, 150));
    held.open();
    expect(await inA).toBeInstanceOf(Error);
    await inB;
    expect(await effectRows()).toEqual([{ order_id: "o1", context: "b" }]);
  });

  it("rolls back an exchange that pauses longer than idleTimeoutMs, storing nothing", async () => {
    const postgres = await store();
    const target = context();
    target.use(postgres.outbox());
    let pauses = 1;
    await addOrderRoute(
      target,
      postgres.transactedIdempotentRepository("orders", { idleTimeoutMs: 200 }),
      "a",
      async () => {
        if (pauses-- > 0) await new Promise((resolve) => setTimeout(resolve, 600));
      },
    );
    await target.start();
    const failed = await failure(target.request("direct:orders", { id: "o1" }));
    expect(failed.code).toBe("QUERY_FAILED");
    expect(failed.retryable).toBe(true);
    expect(failed.message).toContain("the connection is lost or not answering");
    expect(await effectRows()).toEqual([]);
    expect(await keyRows()).toEqual([]);
    // The broken connection was destroyed, not reused: the next exchange runs.
    await target.request("direct:orders", { id: "o1" });
    expect(await effectRows()).toEqual([{ order_id: "o1", context: "a" }]);
  });

  it("refuses a statement sent after the block ended its transaction", async () => {
    const postgres = await store();
    const target = context();
    let kept: ReturnType<typeof postgresTransaction> | undefined;
    await target.addRoutes((r) => {
      r.from<Order>("direct:orders")
        .idempotentConsumer("${body.id}", { repository: postgres.transactedIdempotentRepository("orders") })
        .process((exchange) => {
          kept = postgresTransaction(exchange);
        });
    });
    await target.start();
    await target.request("direct:orders", { id: "o1" });
    const late = await kept?.query("SELECT 1").catch((error: unknown) => error);
    expect((late as PostgresStoreError).code).toBe("TRANSACTION_ENDED");
    expect((late as Error).message).toContain("a statement was sent after the transaction ended");
  });

  it("relays from two contexts, publishing each row once", async () => {
    const first = await store();
    const second = await store();
    const a = context();
    const b = context();
    const counts = new Map<string, number>();
    const by = { a: 0, b: 0 };
    for (const [target, postgres, name] of [
      [a, first, "a"],
      [b, second, "b"],
    ] as const) {
      target.use(postgres.outbox({ pollIntervalMs: 10, batchSize: 5 }));
      await addOrderRoute(target, postgres.transactedIdempotentRepository("orders"), name);
      await target.addRoutes((r) =>
        r.from<Order>("direct:published").process(async (exchange) => {
          counts.set(exchange.body.id, (counts.get(exchange.body.id) ?? 0) + 1);
          by[name]++;
          // Slow enough that both relays have rows to take.
          await new Promise((resolve) => setTimeout(resolve, 2));
        }),
      );
      await target.start();
    }
    const ids = Array.from({ length: 200 }, (_, index) => `o${index}`);
    await Promise.all(ids.map((id, index) => (index % 2 === 0 ? a : b).request("direct:orders", { id })));
    await waitFor("every row published", () => counts.size === ids.length, 20_000);
    await waitFor(
      "every row deleted",
      async () => Number((await raw.query(`SELECT count(*) AS n FROM ${prefix}outbox`)).rows[0].n) === 0,
      5000,
    );
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    expect(by.a + by.b).toBe(ids.length);
    console.log(`outbox relay: 200 rows, context a published ${by.a}, context b ${by.b}, none twice`);
  });

  it("stops relaying with the context and gives every connection back", async () => {
    const postgres = await store();
    const target = context();
    target.use(postgres.outbox({ pollIntervalMs: 10 }));
    await addOrderRoute(target, postgres.transactedIdempotentRepository("orders"), "a");
    await target.addRoutes((r) => r.from("direct:published").to("mock:published"));
    await target.start();
    await target.request("direct:orders", { id: "o1" });
    await target.request("direct:orders", { id: "o1" });
    await expect(target.request("direct:orders", { id: "o2", fail: true })).rejects.toThrow();
    await waitFor(
      "the committed row sent",
      async () => Number((await raw.query(`SELECT count(*) AS n FROM ${prefix}outbox`)).rows[0].n) === 0,
      5000,
    );
    await target.stop();
    await raw.query(
      `INSERT INTO ${prefix}outbox (id, created_at, uri, encoding, body, headers) VALUES (gen_random_uuid(), 0, 'direct:published', 'json', '{}', '{}')`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The relay stopped: the row stays.
    expect(Number((await raw.query(`SELECT count(*) AS n FROM ${prefix}outbox`)).rows[0].n)).toBe(1);
    // pool.end() waits for every checked-out client: it resolves only when all went back.
    const closed = await Promise.race([
      postgres.close().then(() => "closed"),
      new Promise((resolve) => setTimeout(() => resolve("a connection is still checked out"), 3000)),
    ]);
    expect(closed).toBe("closed");
  });

  it("fails with POOL_EXHAUSTED when every connection is held by an open transaction", async () => {
    const postgres = await store({ maxConnections: 2, connectTimeoutMs: 300 });
    const target = context();
    target.use(postgres.outbox({ pollIntervalMs: 60_000 }));
    const held = gate();
    let inside = 0;
    await addOrderRoute(target, postgres.transactedIdempotentRepository("orders"), "a", async () => {
      inside++;
      await held.promise;
    });
    await target.addRoutes((r) => r.from("direct:published").to("mock:published"));
    await target.start();
    const holding = [
      target.request("direct:orders", { id: "o1" }),
      target.request("direct:orders", { id: "o2" }),
    ];
    await waitFor("two exchanges inside their transactions", () => inside === 2, 5000);
    const failed = await failure(target.request("direct:orders", { id: "o3" }));
    expect(failed.code).toBe("POOL_EXHAUSTED");
    expect(failed.retryable).toBe(true);
    expect(failed.message).toContain("maxConnections is 2");
    expect(failed.message).toContain("within connectTimeoutMs (300 ms)");
    held.open();
    await Promise.all(holding);
    await target.request("direct:orders", { id: "o3" });
    expect((await effectRows()).map((row) => row.order_id)).toEqual(["o1", "o2", "o3"]);
  });

  it("says what was expected when used outside a transacted idempotent consumer", async () => {
    const postgres = await store();
    const target = context();
    target.use(postgres.outbox());
    await target.addRoutes((r) => {
      r.from("direct:no-transaction")
        .routeId("plain")
        .process(async (exchange) => {
          await postgresTransaction(exchange).query("SELECT 1");
        });
      r.from("direct:outbox-outside").routeId("outside").to("outbox:direct:published");
    });
    await expect(
      target.addRoutes((r) => {
        r.from("direct:bad-outbox").to("outbox:published");
      }),
    ).rejects.toThrow(
      "expected 'outbox:' followed by the destination URI (e.g. 'outbox:amqp:queue:orders'), found destination 'published'",
    );
    await expect(
      target.addRoutes((r) => {
        r.from("direct:unknown-destination").to("outbox:nats:orders");
      }),
    ).rejects.toThrow(
      "Endpoint 'outbox:nats:orders': no component of this context serves the destination 'nats:orders' (scheme 'nats')",
    );
    await target.start();
    const missing = await failure(target.request("direct:no-transaction", {}));
    expect(missing.code).toBe("TRANSACTION_MISSING");
    expect(missing.retryable).toBe(false);
    expect(missing.message).toMatch(
      /postgresTransaction\(\): expected an exchange inside idempotentConsumer\(key, \{ repository \}\) with a repository from transactedIdempotentRepository\(\), found exchange \S+ of route 'plain' with no open transaction/,
    );
    const outside = await failure(target.request("direct:outbox-outside", {}));
    expect(outside.code).toBe("TRANSACTION_MISSING");
    expect(outside.message).toContain(
      "'outbox:direct:published' expected an exchange inside idempotentConsumer",
    );
    expect(outside.message).toContain("of route 'outside'");
    const repository = postgres.transactedIdempotentRepository("orders");
    await expect(repository.add("o1")).rejects.toThrow(
      "transactedIdempotentRepository('orders').add(key, exchange): expected the exchange being processed as second argument",
    );
    expect(() => postgres.transactedIdempotentRepository("orders", { lockTimeoutMs: 0 })).toThrow(
      /lockTimeoutMs/,
    );
    expect(() => postgres.transactedIdempotentRepository("orders", { lockTimeoutMs: 5000 })).toThrow(
      "transactedIdempotentRepository('orders'): option 'lockTimeoutMs' must be below the store's queryTimeoutMs (5000 ms), found 5000",
    );
    expect(() => postgres.outbox({ batchSize: -1 })).toThrow(/batchSize/);
  });

  it("refuses a body JSON cannot store, naming the outbox", async () => {
    const postgres = await store();
    const target = context();
    target.use(postgres.outbox());
    await target.addRoutes((r) => {
      r.from<{ id: string; amount: bigint }>("direct:orders")
        .idempotentConsumer("${body.id}", { repository: postgres.transactedIdempotentRepository("orders") })
        .to("outbox:direct:published");
    });
    await target.start();
    const failed = await failure(target.request("direct:orders", { id: "o1", amount: 1n }));
    expect(failed.code).toBe("VALUE_CORRUPT");
    expect(failed.message).toContain(
      "'outbox:direct:published' expected a body and headers that JSON can store",
    );
    expect(await keyRows()).toEqual([]);
  });
});
