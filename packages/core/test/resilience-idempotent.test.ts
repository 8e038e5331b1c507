import { createHash, randomBytes } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  createContext,
  createMemoryIdempotentRepository,
  IDEMPOTENT_DUPLICATE,
  type IdempotentRepository,
  type RouteContext,
  RoutekitError,
} from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

setFlagsFromString("--expose-gc");

let context: RouteContext;
afterEach(async () => {
  await context?.stop({ timeoutMs: 1000 });
});

describe("idempotentConsumer", () => {
  it("lets each key through once; duplicates skip the rest of the route and are marked", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .setHeader("seen", "before")
        .idempotentConsumer("${header.orderId}")
        .to("mock:orders");
    });
    await context.start();
    await context.request("direct:in", "first", { orderId: "A1" });
    await context.request("direct:in", "second", { orderId: "B2" });
    const duplicate = await context.requestExchange("direct:in", {
      body: "again",
      headers: { orderId: "A1" },
    });
    expect(context.endpoint("mock:orders").receivedBodies).toEqual(["first", "second"]);
    expect(duplicate.error).toBeUndefined();
    expect(duplicate.properties[IDEMPOTENT_DUPLICATE]).toBe(true);
    expect(duplicate.headers.seen).toBe("before");
  });

  it("claims the key before processing, so a concurrent duplicate is dropped too", async () => {
    context = createContext();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await context.addRoutes((r) => {
      r.from("direct:in")
        .idempotentConsumer((exchange) => exchange.headers.id as string)
        .process(() => gate)
        .to("mock:out");
    });
    await context.start();
    const first = context.request("direct:in", "one", { id: "same" });
    const second = await context.requestExchange("direct:in", { body: "two", headers: { id: "same" } });
    expect(second.properties[IDEMPOTENT_DUPLICATE]).toBe(true);
    release();
    await first;
    expect(context.endpoint("mock:out").receivedBodies).toEqual(["one"]);
  });

  it("releases the key when processing fails, so a retry goes through", async () => {
    context = createContext();
    let failures = 1;
    await context.addRoutes((r) => {
      r.from("direct:in")
        .idempotentConsumer("${body.id}")
        .process(() => {
          if (failures-- > 0) throw new Error("downstream failed");
        })
        .to("mock:out");
    });
    await context.start();
    await expect(context.request("direct:in", { id: 7 })).rejects.toThrow("downstream failed");
    await context.request("direct:in", { id: 7 });
    await context.request("direct:in", { id: 7 });
    expect(context.endpoint("mock:out").receivedCount).toBe(1);
  });

  it("a handled error keeps the key (the exchange completed)", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(Error, { handled: true })
        .idempotentConsumer("${body}")
        .to("mock:attempts")
        .process(() => {
          throw new Error("handled later");
        });
    });
    await context.start();
    await context.request("direct:in", "k");
    await context.request("direct:in", "k");
    expect(context.endpoint("mock:attempts").receivedCount).toBe(1);
  });

  it("skipDuplicate: false lets duplicates through, marked", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .idempotentConsumer("${body}", { skipDuplicate: false })
        .setHeader("duplicate", "${property['idempotent.duplicate'] ?? false}")
        .to("mock:out");
    });
    await context.start();
    await context.request("direct:in", "k");
    await context.request("direct:in", "k");
    expect(context.endpoint("mock:out").received.map((exchange) => exchange.headers.duplicate)).toEqual([
      false,
      true,
    ]);
  });

  it("guards only the rest of its own block; the caller route continues after a duplicate", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller").to("direct:dedupe").to("mock:caller-after");
      r.from("direct:dedupe").idempotentConsumer("${body}").to("mock:deduped");
    });
    await context.start();
    await context.request("direct:caller", "k");
    await context.request("direct:caller", "k");
    expect(context.endpoint("mock:deduped").receivedCount).toBe(1);
    expect(context.endpoint("mock:caller-after").receivedCount).toBe(2);
  });

  it("numbers are keys too", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").idempotentConsumer("${body}").to("mock:out");
    });
    await context.start();
    await context.request("direct:in", 1);
    await context.request("direct:in", 1);
    await context.request("direct:in", 2);
    expect(context.endpoint("mock:out").receivedBodies).toEqual([1, 2]);
  });

  it("a missing key fails the exchange with an error naming the route, the step and what was found", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").routeId("dedupe").idempotentConsumer("${header.orderId}").to("mock:out");
    });
    await context.start();
    const error = await context.request("direct:in", "x").catch((failure: unknown) => failure);
    const cause = (error as Error).cause as RoutekitError;
    expect(cause).toBeInstanceOf(RoutekitError);
    expect(cause.code).toBe("IDEMPOTENT_KEY_MISSING");
    expect(cause.message).toBe(
      "Route 'dedupe': #1 idempotentConsumer found no key: the key expression '${header.orderId}' gave undefined, " +
        "expected a non-empty string or a number",
    );
    await expect(context.request("direct:in", "x", { orderId: "" })).rejects.toThrow("gave an empty string");
    await expect(context.request("direct:in", "x", { orderId: { nested: 1 } })).rejects.toThrow(
      "gave object",
    );
    expect(context.endpoint("mock:out").receivedCount).toBe(0);
  });

  it("keeps its state per step: two idempotent consumers do not share keys", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:a").idempotentConsumer("${body}").to("mock:a");
      r.from("direct:b").idempotentConsumer("${body}").to("mock:b");
    });
    await context.start();
    await context.request("direct:a", "k");
    await context.request("direct:b", "k");
    expect(context.endpoint("mock:a").receivedCount).toBe(1);
    expect(context.endpoint("mock:b").receivedCount).toBe(1);
  });

  it("a shared repository deduplicates across routes, and may be asynchronous", async () => {
    const keys = new Set<string>();
    const confirmed: string[] = [];
    const repository: IdempotentRepository = {
      add: async (key) => {
        await Promise.resolve();
        if (keys.has(key)) return false;
        keys.add(key);
        return true;
      },
      contains: async (key) => keys.has(key),
      remove: async (key) => {
        keys.delete(key);
      },
      confirm: async (key) => {
        confirmed.push(key);
      },
    };
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:a").idempotentConsumer("${body}", { repository }).to("mock:out");
      r.from("direct:b")
        .idempotentConsumer("${body}", { repository })
        .process((exchange) => {
          if (exchange.body === "bad") throw new Error("bad");
        })
        .to("mock:out");
    });
    await context.start();
    await context.request("direct:a", "k");
    await context.request("direct:b", "k");
    await expect(context.request("direct:b", "bad")).rejects.toThrow("bad");
    expect(context.endpoint("mock:out").receivedBodies).toEqual(["k"]);
    expect(confirmed).toEqual(["k"]);
    expect(keys.has("bad")).toBe(false);
  });

  it("the default repository is bounded: the least recently used key is forgotten first", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").idempotentConsumer("${body}", { maximumSize: 2 }).to("mock:out");
    });
    await context.start();
    for (const key of ["a", "b", "a", "c", "a", "b"]) await context.request("direct:in", key);
    // a, b; a is a duplicate (and becomes recent); c evicts b; a is a duplicate; b passes again.
    expect(context.endpoint("mock:out").receivedBodies).toEqual(["a", "b", "c", "b"]);
  });

  it("bad options fail when the route is added", async () => {
    context = createContext();
    const add = (key: unknown, options?: unknown) =>
      context.addRoutes((r) => {
        r.from("direct:in")
          .routeId("ic")
          .idempotentConsumer(key as never, options as never);
      });
    await expect(add(42)).rejects.toThrow(
      "Route 'ic': idempotentConsumer() expects a key expression like \"${header.orderId}\" or a function, found number",
    );
    await expect(add("${body}", { repository: {} })).rejects.toThrow(
      "idempotentConsumer() option 'repository' must be an IdempotentRepository { add, contains, remove, confirm? } (found an object)",
    );
    await expect(add("${body}", { maximumSize: 0 })).rejects.toThrow(
      "option 'maximumSize' must be an integer >= 1 (found number 0)",
    );
    await expect(
      add("${body}", { maximumSize: 5, repository: createMemoryIdempotentRepository() }),
    ).rejects.toThrow("it cannot be combined with 'repository'");
    await expect(add("${body}", { skipDuplicates: false })).rejects.toThrow(
      "idempotentConsumer() has no option 'skipDuplicates' (did you mean skipDuplicate?)",
    );
  });
});

describe("createMemoryIdempotentRepository", () => {
  it("adds, reports duplicates, removes, and stays within its size", () => {
    const repository = createMemoryIdempotentRepository({ maximumSize: 2 });
    expect(repository.add("a")).toBe(true);
    expect(repository.add("a")).toBe(false);
    expect(repository.contains("a")).toBe(true);
    expect(repository.add("b")).toBe(true);
    expect(repository.add("c")).toBe(true);
    expect(repository.size).toBe(2);
    expect(repository.contains("a")).toBe(false);
    expect(repository.remove("b")).toBe(true);
    expect(repository.contains("b")).toBe(false);
  });

  it("refuses a bad size", () => {
    expect(() => createMemoryIdempotentRepository({ maximumSize: 0 })).toThrow(
      "createMemoryIdempotentRepository() option 'maximumSize' must be an integer >= 1 (found 0)",
    );
    expect(() => createMemoryIdempotentRepository({ maxKeyChars: 70 })).toThrow(
      "createMemoryIdempotentRepository() option 'maxKeyChars' must be an integer >= 71 (the length of a stored digest), found 70",
    );
  });

  it("keeps a key longer than maxKeyChars as its digest: two hundred 256-KB keys (50 MB) do not stay in memory", () => {
    const repository = createMemoryIdempotentRepository({ maximumSize: 200 });
    const collect = runInNewContext("gc") as () => void;
    collect();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 200; index++) {
      // A flat string of its own each time (not a slice or a rope over one shared string).
      const key = randomBytes(128 * 1024).toString("hex");
      expect(repository.add(key)).toBe(true);
      expect(repository.add(key)).toBe(false);
    }
    collect();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    expect(repository.size).toBe(200);
    expect(grownMb).toBeLessThan(20);
    const huge = "y".repeat(100_000);
    expect(repository.add(huge)).toBe(true);
    expect(repository.contains(huge)).toBe(true);
    expect(repository.contains("y".repeat(99_999))).toBe(false);
    // The digest is not a key one can send: a key starting with "sha256:" is digested itself.
    const digest = `sha256:${createHash("sha256").update(huge).digest("hex")}`;
    expect(repository.add(digest)).toBe(true);
    expect(repository.remove(huge)).toBe(true);
    expect(repository.contains(huge)).toBe(false);
    expect(repository.contains(digest)).toBe(true);
  });
});
