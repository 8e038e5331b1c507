import { createContext, EFFECT_KEY_HEADER, type Exchange, type RouteContext } from "@routekit/core";
import "@routekit/llm/tool";
import { connectPostgres, type PostgresStore, postgresTransaction } from "@routekit/postgres";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dropTables,
  inspector,
  postgresAvailable,
  postgresConnection,
  uniquePrefix,
} from "./support/postgres-server.js";

describe.skipIf(!postgresAvailable)(
  "a tool route keyed by its effect key on the transacted repository",
  () => {
    const prefix = uniquePrefix("txtool");
    let raw: pg.Client;
    let postgres: PostgresStore;
    let context: RouteContext;

    beforeAll(async () => {
      raw = await inspector();
      await raw.query(`CREATE TABLE ${prefix}refunds (order_id text NOT NULL, amount numeric NOT NULL)`);
      postgres = await connectPostgres({ ...postgresConnection, tablePrefix: prefix, migrate: true });
      context = createContext();
      const effectKey = (exchange: Exchange) => String(exchange.headers[EFFECT_KEY_HEADER] ?? "");
      await context.addRoutes((r) => {
        r.from("direct:refund")
          .asLlmTool("refund", {
            description: "Refunds an order.",
            input: {
              type: "object",
              properties: { orderId: { type: "string" }, amount: { type: "number" } },
              required: ["orderId", "amount"],
            } as const,
          })
          .idempotentConsumer(effectKey, { repository: postgres.transactedIdempotentRepository("refunds") })
          .process(async (exchange) => {
            await postgresTransaction(exchange).query(
              `INSERT INTO ${prefix}refunds (order_id, amount) VALUES ($1, $2)`,
              [exchange.body.orderId, exchange.body.amount],
            );
          })
          .transform((exchange) => ({ refunded: exchange.body.amount }));
      });
      await context.start();
    });
    afterAll(async () => {
      await context.stop();
      await postgres.close();
      await dropTables(raw, prefix);
      await raw.query(`DROP TABLE IF EXISTS ${prefix}refunds`);
      await raw.end();
    });

    it("writes once for a repeated call with the same effect key, again for another key", async () => {
      const call = (effectKey: string) =>
        context.tools.call("refund", { orderId: "o-7", amount: 12.5 }, { effectKey, callId: "call-1" });
      expect(await call("run-1:turn-2:call-1")).toEqual({ refunded: 12.5 });
      // The same call retried (a redelivered run step): the effect is not applied again.
      await call("run-1:turn-2:call-1");
      await call("run-1:turn-2:call-1");
      expect(await call("run-1:turn-3:call-1")).toEqual({ refunded: 12.5 });
      const rows = await raw.query(`SELECT order_id, amount FROM ${prefix}refunds`);
      expect(rows.rows).toEqual([
        { order_id: "o-7", amount: "12.5" },
        { order_id: "o-7", amount: "12.5" },
      ]);
      const keys = await raw.query(
        `SELECT key FROM ${prefix}idempotent WHERE repository = 'refunds' ORDER BY key`,
      );
      expect(keys.rows.map((row) => row.key)).toEqual(["run-1:turn-2:call-1", "run-1:turn-3:call-1"]);
    });

    it("fails the call, writing nothing, when it comes without an effect key", async () => {
      await expect(context.tools.call("refund", { orderId: "o-8", amount: 1 })).rejects.toThrow(
        /found no key/,
      );
      const rows = await raw.query(`SELECT order_id FROM ${prefix}refunds WHERE order_id = 'o-8'`);
      expect(rows.rows).toEqual([]);
    });
  },
);
