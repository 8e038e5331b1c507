import { connectPostgres } from "@routekit/postgres";
import { waitFor } from "@routekit/test-support";
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
import { spawnScript, type WorkerProcess } from "./support/spawn-worker.js";

const MESSAGES = 20_000;
const KILLS = 3;

interface Counts {
  readonly form: string;
  readonly distinct: number;
  readonly duplicates: number;
  readonly deadLetters: number;
  readonly killedAt: number[];
  readonly seconds: number;
}

const counts: Counts[] = [];

/** Messages ready in `queue` (0 when it does not exist), on a connection of its own. */
async function messagesIn(queue: string): Promise<number> {
  const connection = await connect(brokerUrl);
  try {
    const channel = await connection.createChannel();
    channel.on("error", () => {});
    return (await channel.checkQueue(queue)).messageCount;
  } catch {
    return 0;
  } finally {
    await connection.close().catch(() => {});
  }
}

/**
 * Two worker processes on one RabbitMQ queue, 20,000 messages, three SIGKILLs at random moments
 * with restarts; the effect an insert into a table without a unique key. The transacted form
 * (key, insert and confirm in one transaction) must leave every message's row exactly once; the
 * plain form (claim, insert, confirm as three steps) is run beside it and its counts printed.
 */
describe.skipIf(!(brokerAvailable && postgresAvailable))(
  "kill test: transacted idempotent consumer against the plain one",
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

    const run = async (form: "transacted" | "plain"): Promise<Counts> => {
      const prefix = uniquePrefix(`kill${form.slice(0, 2)}`);
      const queue = `rk-test-txkill-${prefix.slice(14, 22)}`;
      const raw: pg.Client = await inspector();
      const broker: ChannelModel = await connect(brokerUrl);
      cleanups.push(async () => {
        // A connection of its own: the broker may have closed the test's one meanwhile.
        const cleaner = await connect(brokerUrl);
        const channel = await cleaner.createChannel();
        await channel.deleteQueue(queue);
        await channel.deleteQueue(`${queue}.dlq`);
        await cleaner.close();
        await broker.close().catch(() => {});
        await dropTables(raw, prefix);
        await raw.query(`DROP TABLE IF EXISTS ${prefix}effects`);
        await raw.end();
      });
      await raw.query(`CREATE TABLE ${prefix}effects (id text NOT NULL, pid integer NOT NULL)`);
      const store = await connectPostgres({ ...postgresConnection, tablePrefix: prefix, migrate: true });
      await store.close();
      const channel = await broker.createConfirmChannel();
      await channel.assertQueue(queue, { durable: true });

      const start = (): WorkerProcess => {
        const worker = spawnScript("transacted-kill-worker.ts", [queue, prefix, form]);
        workers.push(worker);
        return worker;
      };
      let live = [start(), start()];
      await Promise.all(live.map((worker) => worker.ready));

      const began = Date.now();
      for (let index = 0; index < MESSAGES; index++) {
        channel.sendToQueue(queue, Buffer.from(JSON.stringify({ id: `m${index}` })), {
          persistent: true,
          contentType: "application/json",
        });
        if (index % 1000 === 999) await channel.waitForConfirms();
      }
      await channel.waitForConfirms();

      const effects = async (): Promise<{ total: number; distinct: number }> => {
        const row = (
          await raw.query(`SELECT count(*) AS total, count(DISTINCT id) AS distinct FROM ${prefix}effects`)
        ).rows[0];
        return { total: Number(row.total), distinct: Number(row.distinct) };
      };
      // Three kills at random moments: one in each of three stretches of the run.
      const killedAt: number[] = [];
      for (let kill = 0; kill < KILLS; kill++) {
        const threshold = Math.floor(MESSAGES * (kill * 0.25 + 0.1 + Math.random() * 0.2));
        await waitFor(
          `${threshold} effects before kill ${kill + 1}`,
          async () => (await effects()).total >= threshold,
          120_000,
        );
        const victim = live[Math.floor(Math.random() * live.length)] as WorkerProcess;
        victim.child.kill("SIGKILL");
        await victim.exited;
        killedAt.push((await effects()).total);
        const restarted = start();
        live = [...live.filter((worker) => worker !== victim), restarted];
        await restarted.ready;
      }
      await waitFor(
        `all ${MESSAGES} messages' effects`,
        async () => (await effects()).distinct === MESSAGES,
        120_000,
      );
      // Redeliveries of keys the killed workers held settle within their claims' 2 s (plain form).
      let last = (await effects()).total;
      for (let stable = 0; stable < 3; ) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const now = (await effects()).total;
        stable = now === last ? stable + 1 : 0;
        last = now;
      }
      const seconds = (Date.now() - began) / 1000;
      for (const worker of live) worker.child.kill("SIGTERM");
      await Promise.all(live.map((worker) => worker.exited));
      const final = await effects();
      const deadLetters = await messagesIn(`${queue}.dlq`);
      const result = {
        form,
        distinct: final.distinct,
        duplicates: final.total - final.distinct,
        deadLetters,
        killedAt,
        seconds,
      };
      counts.push(result);
      console.log(
        `kill test (${form}): ${MESSAGES} messages, ${KILLS} SIGKILLs after ${killedAt.join(", ")} effects; ` +
          `${result.distinct} processed, ${MESSAGES - result.distinct} lost, ${result.duplicates} duplicates, ` +
          `${deadLetters} dead letters; ${seconds.toFixed(1)} s`,
      );
      return result;
    };

    it("transacted: 0 duplicates and 0 lost over 20,000 messages and three SIGKILLs", async () => {
      const result = await run("transacted");
      expect(result.distinct).toBe(MESSAGES);
      expect(result.duplicates).toBe(0);
      expect(result.deadLetters).toBe(0);
    }, 240_000);

    it("plain (claim, effect, confirm as separate steps): counts beside it", async () => {
      const result = await run("plain");
      // Nothing is lost; duplicates are possible (the documented limit), so they are only printed.
      expect(result.distinct).toBe(MESSAGES);
      expect(result.deadLetters).toBe(0);
      console.log(
        `kill test side by side: ${counts.map((entry) => `${entry.form} ${entry.duplicates} duplicates / ${MESSAGES - entry.distinct} lost`).join("; ")}`,
      );
    }, 240_000);
  },
);
