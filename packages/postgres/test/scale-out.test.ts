import { connectPostgres, type PostgresStore } from "@routekit/postgres";
import { connectRedis, type RedisStore } from "@routekit/redis";
import { howToStart, skipForMissing, waitFor } from "@routekit/test-support";
import { type ChannelModel, connect } from "amqplib";
import type pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { brokerAvailable, brokerUrl } from "./support/broker.js";
import {
  dropTables,
  inspector,
  postgresAvailable,
  postgresConnection,
  uniquePrefix,
} from "./support/postgres-server.js";
import { spawnWorker, type WorkerProcess } from "./support/spawn-worker.js";

const ORDERS = 120;
const PARTS = 5;

async function redisAnswers(): Promise<boolean> {
  try {
    const store = await connectRedis({ connectTimeoutMs: 2000 });
    await store.close();
    return true;
  } catch (error) {
    skipForMissing("Redis on 127.0.0.1:6379", howToStart("Redis"), error);
    return false;
  }
}
const available = brokerAvailable && postgresAvailable && (await redisAnswers());

describe.skipIf(!available)(
  "scale-out: two worker processes share one queue, one is killed and restarted",
  () => {
    let workers: WorkerProcess[] = [];
    let cleanups: Array<() => Promise<void>> = [];

    afterEach(async () => {
      for (const worker of workers) {
        if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
        await worker.exited;
      }
      workers = [];
      for (const cleanup of cleanups.reverse()) await cleanup();
      cleanups = [];
    });

    for (const idempotentStore of ["redis", "postgres"] as const) {
      const groupStore = idempotentStore === "redis" ? "postgres" : "redis";
      it(`processes every part once and completes every order once (keys on ${idempotentStore}, groups on ${groupStore})`, async () => {
        const prefix = uniquePrefix("scale");
        const queue = `rk-test-scale-${prefix.slice(14, 22)}`;
        const raw: pg.Client = await inspector();
        const broker: ChannelModel = await connect(brokerUrl);
        const postgres: PostgresStore = await connectPostgres({
          ...postgresConnection,
          tablePrefix: prefix,
          migrate: true,
        });
        const redis: RedisStore = await connectRedis({ keyPrefix: prefix });
        const groups =
          groupStore === "postgres"
            ? postgres.aggregationRepository("orders")
            : redis.aggregationRepository("orders");
        cleanups.push(async () => {
          const channel = await broker.createChannel();
          await channel.deleteQueue(queue);
          await channel.deleteQueue(`${queue}.dlq`);
          await broker.close();
          await groups.clear();
          await redis.idempotentRepository("parts").clear();
          await redis.close();
          await postgres.close();
          await dropTables(raw, prefix);
          await raw.query(`DROP TABLE IF EXISTS ${prefix}runs, ${prefix}results`);
          await raw.end();
        });
        await raw.query(`CREATE TABLE ${prefix}runs (id text NOT NULL, pid integer NOT NULL)`);
        await raw.query(
          `CREATE TABLE ${prefix}results (order_key text, completion_id text, ids jsonb, attempts integer, pid integer)`,
        );
        const channel = await broker.createConfirmChannel();
        await channel.assertQueue(queue, { durable: true });

        const start = (): WorkerProcess => {
          const worker = spawnWorker(queue, prefix, idempotentStore, PARTS);
          workers.push(worker);
          return worker;
        };
        const first = start();
        const second = start();
        await Promise.all([first.ready, second.ready]);

        // Parts of each order interleaved, so both workers receive parts of every order; every
        // seventh part is sent again at once and every eleventh again at the end (duplicates).
        const expected = new Map<string, string[]>();
        const late: string[] = [];
        let duplicates = 0;
        const publish = (part: { id: string; order: string }) =>
          channel.sendToQueue(queue, Buffer.from(JSON.stringify(part)), {
            persistent: true,
            contentType: "application/json",
          });
        let index = 0;
        for (let line = 0; line < PARTS; line++) {
          for (let order = 0; order < ORDERS; order++) {
            const part = { id: `o${order}-p${line}`, order: `o${order}` };
            expected.set(part.order, [...(expected.get(part.order) ?? []), part.id]);
            publish(part);
            index++;
            if (index % 7 === 0) {
              publish(part);
              duplicates++;
            }
            if (index % 11 === 0) late.push(JSON.stringify(part));
          }
        }
        await channel.waitForConfirms();

        const runs = async (): Promise<number> =>
          Number((await raw.query(`SELECT count(*) AS n FROM ${prefix}runs`)).rows[0].n);
        await waitFor(
          "a third of the parts processed",
          async () => (await runs()) >= (ORDERS * PARTS) / 3,
          60_000,
        );
        first.child.kill("SIGKILL");
        await first.exited;
        const killedAfter = await runs();
        const restarted = start();
        await restarted.ready;
        for (const part of late)
          channel.sendToQueue(queue, Buffer.from(part), {
            persistent: true,
            contentType: "application/json",
          });
        duplicates += late.length;
        await channel.waitForConfirms();

        const completedOrders = async (): Promise<number> =>
          Number((await raw.query(`SELECT count(DISTINCT order_key) AS n FROM ${prefix}results`)).rows[0].n);
        await waitFor(
          `all ${ORDERS} orders completed`,
          async () => (await completedOrders()) === ORDERS,
          90_000,
        );
        await waitFor(
          "the queue drained",
          async () => (await channel.checkQueue(queue)).messageCount === 0,
          30_000,
        );
        // Give retries of parts the killed worker had claimed the time to settle.
        await new Promise((resolve) => setTimeout(resolve, 3000));
        for (const worker of [second, restarted]) worker.child.kill("SIGTERM");
        await Promise.all([second.exited, restarted.exited]);

        const results = (
          await raw.query<{ order_key: string; completion_id: string; ids: string[]; attempts: number }>(
            `SELECT order_key, completion_id, ids, attempts FROM ${prefix}results`,
          )
        ).rows;
        // Every order completed exactly once: one completion id per order, with exactly its parts.
        const completions = new Map<string, { order: string; ids: string[] }>();
        for (const row of results) completions.set(row.completion_id, { order: row.order_key, ids: row.ids });
        const perOrder = new Map<string, number>();
        for (const { order } of completions.values()) perOrder.set(order, (perOrder.get(order) ?? 0) + 1);
        expect(perOrder.size).toBe(ORDERS);
        expect([...perOrder.values()].every((count) => count === 1)).toBe(true);
        const seen = new Map<string, number>();
        for (const { order, ids } of completions.values()) {
          expect([...ids].sort()).toEqual([...(expected.get(order) ?? [])].sort());
          for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
        }
        // Zero parts processed twice into an order, none lost.
        expect(seen.size).toBe(ORDERS * PARTS);
        expect([...seen.values()].filter((count) => count !== 1)).toEqual([]);
        // A completion handled twice can only be a recovery of one the killed worker did not confirm.
        const reprocessed = results.length - completions.size;
        expect(results.filter((row) => row.attempts > 0).length).toBeGreaterThanOrEqual(reprocessed);
        // The idempotent route's rest ran again only for keys the killed worker held (prefetch 10).
        const reruns = Number(
          (
            await raw.query(
              `SELECT count(*) AS n FROM (SELECT id FROM ${prefix}runs GROUP BY id HAVING count(*) > 1) twice`,
            )
          ).rows[0].n,
        );
        expect(reruns).toBeLessThanOrEqual(10);
        expect(await groups.keys()).toEqual([]);
        expect(await groups.recover(0, 10)).toEqual([]);
        expect((await channel.checkQueue(`${queue}.dlq`)).messageCount).toBe(0);
        console.log(
          `scale-out (keys on ${idempotentStore}, groups on ${groupStore}): ${ORDERS * PARTS} parts + ${duplicates} duplicates, ` +
            `worker killed after ${killedAfter} runs and restarted; ${perOrder.size} orders completed once each, ` +
            `0 parts twice in an order; the idempotent route re-ran ${reruns} keys the killed worker held; ` +
            `${reprocessed} completions processed again by recovery`,
        );
      }, 180_000);
    }
  },
);
