import { createContext, type IdempotentRepository, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

// The confirm path of idempotentConsumer: a repository that confirms (as the shared stores' do)
// hears `confirm(key)` once the rest of the block succeeded, and only then.

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 1000 });
  context = undefined;
});

/** A repository that keeps keys in memory and writes every call, and the block's steps, to `log`. */
function loggingRepository(
  log: string[],
  confirm: (key: string) => void | Promise<void> = () => {},
): IdempotentRepository {
  const keys = new Set<string>();
  return {
    add: (key) => {
      log.push(`add ${key}`);
      if (keys.has(key)) return false;
      keys.add(key);
      return true;
    },
    contains: (key) => keys.has(key),
    remove: (key) => {
      log.push(`remove ${key}`);
      keys.delete(key);
    },
    confirm: (key) => {
      log.push(`confirm ${key}`);
      return confirm(key);
    },
  };
}

async function routeWith(repository: IdempotentRepository, log: string[]): Promise<RouteContext> {
  const started = createContext({ logLevel: "off" });
  await started.addRoutes((r) =>
    r
      .from("direct:in")
      .idempotentConsumer("${header.orderId}", { repository })
      .process(async (exchange) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (exchange.body === "fail") throw new Error(`order ${String(exchange.headers.orderId)} refused`);
        log.push(`processed ${String(exchange.headers.orderId)}`);
      }),
  );
  await started.start();
  return started;
}

describe("idempotentConsumer confirms a key", () => {
  it("once, with the evaluated key, after the rest of the block finished; never for a duplicate or a failure", async () => {
    const log: string[] = [];
    context = await routeWith(loggingRepository(log), log);
    await context.request("direct:in", "ok", { orderId: "A1" });
    await context.request("direct:in", "again", { orderId: "A1" });
    await expect(context.request("direct:in", "fail", { orderId: "B2" })).rejects.toThrow("order B2 refused");
    expect(log).toEqual(["add A1", "processed A1", "confirm A1", "add A1", "add B2", "remove B2"]);
  });

  it("fails the exchange when confirm rejects: the caller hears the repository's error", async () => {
    const log: string[] = [];
    const repository = loggingRepository(log, async (key) => {
      throw new Error(`store lost the claim on '${key}'`);
    });
    context = await routeWith(repository, log);
    await expect(context.request("direct:in", "ok", { orderId: "C3" })).rejects.toThrow(
      "store lost the claim on 'C3'",
    );
    expect(log).toEqual(["add C3", "processed C3", "confirm C3"]);
  });

  it("fails the exchange when confirm throws synchronously", async () => {
    const log: string[] = [];
    const repository = loggingRepository(log, (key) => {
      throw new Error(`cannot confirm '${key}'`);
    });
    context = await routeWith(repository, log);
    await expect(context.request("direct:in", "ok", { orderId: "D4" })).rejects.toThrow(
      "cannot confirm 'D4'",
    );
  });
});

describe("idempotentConsumer hands the exchange to its repository", () => {
  it("passes the exchange being processed to add, confirm and remove", async () => {
    const seen: string[] = [];
    const keys = new Set<string>();
    const repository: IdempotentRepository = {
      add: (key, exchange) => {
        seen.push(`add ${key} ${String(exchange?.headers.orderId)}`);
        if (keys.has(key)) return false;
        keys.add(key);
        return true;
      },
      contains: (key) => keys.has(key),
      remove: (key, exchange) => {
        seen.push(`remove ${key} ${String(exchange?.headers.orderId)}`);
        keys.delete(key);
      },
      confirm: (key, exchange) => {
        seen.push(`confirm ${key} ${String(exchange?.headers.orderId)}`);
      },
    };
    context = await routeWith(repository, []);
    await context.request("direct:in", "ok", { orderId: "o1" });
    await expect(context.request("direct:in", "fail", { orderId: "o2" })).rejects.toThrow("order o2 refused");
    expect(seen).toEqual(["add o1 o1", "confirm o1 o1", "add o2 o2", "remove o2 o2"]);
  });
});
