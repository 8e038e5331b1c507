import { createHash, randomUUID } from "node:crypto";
import { createContext, groupedBodies, type IdempotentRepository, type RouteContext } from "@routekit/core";
import type { SharedAggregationRepository } from "@routekit/core/internal";
import { waitFor } from "@routekit/test-support";
import { afterEach, expect, it } from "vitest";

// The cases every shared store (Redis, PostgreSQL) must pass, the same for each: a store's test file
// calls a contract inside its own `describe` with a factory of repositories on the real server, and
// keeps the cases only its store has (its own key or row layout, its own failures) beside it.

/** The options a store's idempotent repository takes. */
export interface IdempotentContractOptions {
  claimTimeoutMs?: number;
  expireAfterMs?: number;
  maxKeyChars?: number;
}

/** An idempotent repository that confirms claims (as the shared stores' repositories do). */
export type ConfirmingIdempotentRepository = IdempotentRepository & { confirm(key: string): Promise<void> };

/** How the idempotent contract reaches one store. */
export interface IdempotentStoreUnderTest {
  /** The store's one error class (a claimed key fails with it). */
  readonly errorClass: abstract new (
    ...args: never[]
  ) => Error;
  /** Repository `name` on a connection of its own (each call connects again), closed after the test. */
  repository(name: string, options?: IdempotentContractOptions): Promise<ConfirmingIdempotentRepository>;
  /** Checks, from outside routekit, that `key` of repository `name` is stored as processed. */
  expectProcessed(name: string, key: string): Promise<void>;
  /** Read from outside routekit: how many ms the stored `key` of repository `name` has left (undefined: no expiry). */
  expiresIn(name: string, key: string): Promise<number | undefined>;
}

const sha256 = (text: string): string => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

/** The cases of an idempotent repository shared by several instances. */
export function idempotentRepositoryContract(store: IdempotentStoreUnderTest): void {
  const contexts = contextsStoppedAfterEach();

  it("lets exactly one of two instances claim a key; a claimed key fails the other, a confirmed one is a duplicate", async () => {
    const first = await store.repository("orders");
    const second = await store.repository("orders");
    const claims = await Promise.allSettled([first.add("o-1"), second.add("o-1")]);
    const won = claims.filter((claim) => claim.status === "fulfilled" && claim.value === true);
    const refused = claims.filter((claim) => claim.status === "rejected");
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const error: unknown = refused[0]?.reason;
    expect(error).toBeInstanceOf(store.errorClass);
    expect(error).toMatchObject({ code: "KEY_IN_PROGRESS" });
    expect((error as Error).message).toMatch(/key 'o-1' is claimed by a consumer that has not finished/);
    const winner = claims[0]?.status === "fulfilled" ? first : second;
    await winner.confirm("o-1");
    expect(await first.add("o-1")).toBe(false);
    expect(await second.add("o-1")).toBe(false);
    expect(await second.contains("o-1")).toBe(true);
    await store.expectProcessed("orders", "o-1");
  });

  it("processes each key once in a route, releases a key whose processing failed and lets its retry through", async () => {
    const repository = await store.repository("route");
    const processed: string[] = [];
    let failNext = true;
    const context = contexts.create();
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

  it("confirms each key a route processed: another instance then finds a duplicate, not a claim in progress", async () => {
    const routed = await store.repository("confirmed");
    const other = await store.repository("confirmed");
    const context = contexts.create();
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .idempotentConsumer("${body.id}", { repository: routed })
        .process((exchange) => {
          if ((exchange.body as { fail?: boolean }).fail === true) throw new Error("downstream refused");
        }),
    );
    await context.start();
    await context.request("direct:in", { id: "done" });
    await expect(context.request("direct:in", { id: "failed", fail: true })).rejects.toThrow(
      /downstream refused/,
    );
    // Unconfirmed, "done" would still be claimed: the other instance's add would throw KEY_IN_PROGRESS.
    expect(await other.add("done")).toBe(false);
    await store.expectProcessed("confirmed", "done");
    // Released, not confirmed: the other instance may claim the failed key at once.
    expect(await other.add("failed")).toBe(true);
  });

  it("frees a claim whose consumer died once claimTimeoutMs passed; the dead consumer's late confirm fails with CLAIM_LOST", async () => {
    const dying = await store.repository("crash", { claimTimeoutMs: 300 });
    const survivor = await store.repository("crash", { claimTimeoutMs: 300 });
    expect(await dying.add("k")).toBe(true);
    await expect(survivor.add("k")).rejects.toMatchObject({ code: "KEY_IN_PROGRESS" });
    await sleep(600);
    expect(await survivor.add("k")).toBe(true);
    const late = dying.confirm("k");
    await expect(late).rejects.toMatchObject({ code: "CLAIM_LOST" });
    await expect(late).rejects.toThrow(/raise claimTimeoutMs/);
    await survivor.confirm("k");
    expect(await dying.add("k")).toBe(false);
  });

  it("stores a key longer than maxKeyChars (default 256) as its SHA-256 digest; shorter keys as given", async () => {
    const repository = await store.repository("long");
    const huge = `order-${"x".repeat(200_000)}`;
    expect(await repository.add(huge)).toBe(true);
    await repository.confirm(huge);
    await store.expectProcessed("long", sha256(huge));
    expect(await repository.add(huge)).toBe(false);
    expect(await repository.contains(huge)).toBe(true);
    // The stored form cannot be sent: a key starting with "sha256:" is itself digested.
    expect(await repository.add(sha256(huge))).toBe(true);
    await repository.confirm(sha256(huge));
    await store.expectProcessed("long", sha256(sha256(huge)));
    const edge = "k".repeat(256);
    expect(await repository.add(edge)).toBe(true);
    await repository.confirm(edge);
    await store.expectProcessed("long", edge);
    const narrow = await store.repository("narrow", { maxKeyChars: 80 });
    expect(await narrow.add("n".repeat(81))).toBe(true);
    await narrow.confirm("n".repeat(81));
    await store.expectProcessed("narrow", sha256("n".repeat(81)));
    await expect(store.repository("bad", { maxKeyChars: 10 })).rejects.toThrow(
      /option 'maxKeyChars' must be an integer >= 71 \(the length of a stored digest\), found 10/,
    );
  });

  it("remembers a processed key for 7 days by default; expireAfterMs Infinity keeps it until removed", async () => {
    const repository = await store.repository("retained");
    expect(await repository.add("k")).toBe(true);
    await repository.confirm("k");
    const left = await store.expiresIn("retained", "k");
    expect(left).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(left).toBeLessThanOrEqual(7 * 24 * 3600_000);
    const forever = await store.repository("forever", { expireAfterMs: Number.POSITIVE_INFINITY });
    expect(await forever.add("k")).toBe(true);
    await forever.confirm("k");
    expect(await store.expiresIn("forever", "k")).toBeUndefined();
    expect(await forever.add("k")).toBe(false);
  });

  it("forgets processed keys after expireAfterMs", async () => {
    const repository = await store.repository("expiring", { expireAfterMs: 300 });
    expect(await repository.add("k")).toBe(true);
    await repository.confirm("k");
    expect(await repository.add("k")).toBe(false);
    await sleep(600);
    expect(await repository.contains("k")).toBe(false);
    expect(await repository.add("k")).toBe(true);
  });

  it("refuses a repository name that cannot be stored and a claimTimeoutMs below 1, naming both", async () => {
    await expect(store.repository("a b")).rejects.toThrow(
      /idempotentRepository\(\) name must be 1-100 letters, digits, '.', '_' or '-', found "a b"/,
    );
    await expect(store.repository("ok", { claimTimeoutMs: 0 })).rejects.toThrow(
      /option 'claimTimeoutMs' must be an integer >= 1, found 0/,
    );
  });
}

/** How the aggregation contract reaches one store. */
export interface AggregationStoreUnderTest {
  /**
   * The repository of this test (one name per test) on a connection of its own (each call connects
   * again), closed after the test.
   */
  repository(): Promise<SharedAggregationRepository>;
  /** How many completed groups of this test's repository wait to be confirmed, read from outside. */
  completedCount(): Promise<number>;
  /**
   * Writes values routekit did not write under some group keys of this test's repository, from
   * outside routekit, and says how adding a part to each group (its key) must fail: the text or
   * pattern of the error, or an object the error matches.
   */
  writeForeignGroups(): Promise<Array<{ key: string; failure: string | RegExp | object }>>;
  /** Checks, from outside routekit, that the foreign values are still there. */
  expectForeignGroupsKept(): Promise<void>;
}

interface Part {
  readonly order: string;
  readonly line: number;
}

/** The cases of an aggregation repository shared by several instances. */
export function aggregationRepositoryContract(store: AggregationStoreUnderTest): void {
  const contexts = contextsStoppedAfterEach();

  /** An instance: its own context and connection, aggregating order lines into `completed`. */
  const instance = async (
    completed: unknown[][],
    options: Record<string, unknown> = {},
    rest: (body: unknown[]) => void = () => {},
  ): Promise<RouteContext> => {
    const context = contexts.create();
    const shared = await store.repository();
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
    const completed: unknown[][] = [];
    const first = await instance(completed, { completionSize: 5 });
    const second = await instance(completed, { completionSize: 5 });
    const sends: Promise<void>[] = [];
    for (let order = 0; order < 20; order++) {
      for (let line = 0; line < 5; line++) {
        const target = (order + line) % 2 === 0 ? first : second;
        sends.push(target.send("seda:lines", { order: `o${order}`, line }));
      }
    }
    await Promise.all(sends);
    await waitFor("20 completed orders", () => completed.length >= 20);
    await sleep(300);
    expect(completed).toHaveLength(20);
    for (const group of completed) {
      expect((group as Part[]).map((part) => part.line).sort()).toEqual([0, 1, 2, 3, 4]);
    }
    expect(new Set(completed.map((group) => (group as Part[])[0]?.order)).size).toBe(20);
    expect(await store.completedCount()).toBe(0);
  });

  it("adds a part delivered again only once, also after its group completed", async () => {
    const completed: unknown[][] = [];
    const context = await instance(completed, { completionSize: 2 });
    await context.send("seda:lines", { order: "a", line: 1 });
    await context.send("seda:lines", { order: "a", line: 1 });
    await sleep(200);
    await context.send("seda:lines", { order: "a", line: 2 });
    await waitFor("order a", () => completed.length === 1);
    await context.send("seda:lines", { order: "a", line: 2 });
    await sleep(300);
    expect(completed).toEqual([
      [
        { order: "a", line: 1 },
        { order: "a", line: 2 },
      ],
    ]);
    expect(await (await store.repository()).keys()).toEqual([]);
  });

  it("completes a group by timeout on another instance after the one that received its parts stopped", async () => {
    const completed: unknown[][] = [];
    const options = { completionTimeout: 400, completionTimeoutCheckInterval: 100 };
    const receiver = await instance(completed, options);
    await receiver.send("seda:lines", { order: "t", line: 1 });
    await receiver.send("seda:lines", { order: "t", line: 2 });
    const reader = await store.repository();
    await waitFor("two parts stored", async () => (await reader.read("t"))?.partIds.length === 2);
    await receiver.stop();
    expect(completed).toEqual([]);
    await instance(completed, options);
    await waitFor("the timed-out group", () => completed.length === 1, 10_000);
    expect(completed[0]).toHaveLength(2);
  });

  it("recovers a group completed by an instance that died before processing it", async () => {
    const shared = await store.repository();
    const stored = { body: [{ order: "c", line: 1 }], headers: { source: "crashed" }, properties: {} };
    const write = { version: undefined, exchange: stored, partIds: ["c/1"], timeoutAt: undefined };
    expect(await shared.complete("c", randomUUID(), write)).toBe(true);
    expect(await shared.complete("c", randomUUID(), write)).toBe(false);
    const completed: unknown[][] = [];
    await instance(completed, { completionSize: 5, recovery: { interval: 200 } });
    await waitFor("the recovered group", () => completed.length === 1, 10_000);
    expect(completed[0]).toEqual([{ order: "c", line: 1 }]);
    await waitFor("the completion confirmed", async () => (await store.completedCount()) === 0);
  });

  it("retries a group whose processing fails and moves it to the dead letter after maximumRedeliveries", async () => {
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
    await waitFor("nothing left to recover", async () => (await store.completedCount()) === 0);
  });

  it("fails the exchange with VALUE_CORRUPT naming the key when a group holds a foreign value, and keeps the value", async () => {
    const completed: unknown[] = [];
    const context = contexts.create();
    const shared = await store.repository();
    await context.addRoutes((r) =>
      r
        .from("direct:lines")
        .aggregate("${body.order}", { strategy: groupedBodies(), repository: shared, completionSize: 2 })
        .process((exchange) => {
          completed.push(exchange.body);
        }),
    );
    await context.start();
    const foreign = await store.writeForeignGroups();
    expect(foreign.length).toBeGreaterThan(0);
    for (const { key, failure } of foreign) {
      const sent = context.request("direct:lines", { order: key });
      await expect(sent).rejects.toMatchObject({ cause: { code: "VALUE_CORRUPT" } });
      if (typeof failure === "string" || failure instanceof RegExp)
        await expect(sent).rejects.toThrow(failure);
      else await expect(sent).rejects.toMatchObject(failure);
    }
    await store.expectForeignGroupsKept();
    await context.request("direct:lines", { order: "fine" });
    await context.request("direct:lines", { order: "fine" });
    expect(completed).toEqual([[{ order: "fine" }, { order: "fine" }]]);
  });
}

/** Contexts a contract's cases create, stopped after each case. */
function contextsStoppedAfterEach(): { create(): RouteContext } {
  const created: RouteContext[] = [];
  afterEach(async () => {
    for (const context of created.splice(0)) await context.stop();
  });
  return {
    create() {
      const context = createContext();
      created.push(context);
      return context;
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
