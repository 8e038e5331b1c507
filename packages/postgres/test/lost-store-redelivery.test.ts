import { amqpPlugin } from "@routekit/amqp";
import { createContext, groupedBodies, type RouteContext } from "@routekit/core";
import { connectPostgres, type PostgresStore, PostgresStoreError } from "@routekit/postgres";
import { connectRedis, type RedisStore, RedisStoreError } from "@routekit/redis";
import { howToStart, LoopbackProxy, skipForMissing, waitFor } from "@routekit/test-support";
import { type ChannelModel, connect } from "amqplib";
import { afterEach, describe, expect, it } from "vitest";
import { brokerAvailable, brokerUrl } from "./support/broker.js";
import {
  postgresAvailable,
  postgresConnection,
  postgresHost,
  postgresPort,
  uniquePrefix,
} from "./support/postgres-server.js";

async function redisAnswers(): Promise<boolean> {
  try {
    await (await connectRedis({ connectTimeoutMs: 2000 })).close();
    return true;
  } catch (error) {
    skipForMissing("Redis on 127.0.0.1:6379", howToStart("Redis"), error);
    return false;
  }
}
const available = brokerAvailable && postgresAvailable && (await redisAnswers());

describe.skipIf(!available)("stores lost while RabbitMQ messages flow", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  });

  it("fails the exchanges while PostgreSQL and Redis are gone, and every message is redelivered and processed once when they are back", async () => {
    const prefix = uniquePrefix("lost_amqp");
    const queue = `rk-test-lost-${prefix.slice(18, 26)}`;
    const postgresProxy = await LoopbackProxy.start({ host: postgresHost, port: postgresPort });
    const redisProxy = await LoopbackProxy.start({ host: "127.0.0.1", port: 6379 });
    const postgres: PostgresStore = await connectPostgres({
      ...postgresConnection,
      host: "127.0.0.1",
      port: postgresProxy.port,
      tablePrefix: prefix,
      migrate: true,
      connectTimeoutMs: 1000,
    });
    const redis: RedisStore = await connectRedis({ port: redisProxy.port, keyPrefix: prefix });
    const broker: ChannelModel = await connect(brokerUrl);
    const context: RouteContext = createContext();
    const groups = redis.aggregationRepository("orders");
    cleanups.push(async () => {
      await context.stop();
      postgresProxy.restore();
      redisProxy.restore();
      const channel = await broker.createChannel();
      await channel.deleteQueue(queue);
      await channel.deleteQueue(`${queue}.dlq`);
      await broker.close();
      await groups.clear().catch(() => {});
      await postgres.dropTables().catch(() => {});
      await Promise.all([postgres.close(), redis.close()]);
      await Promise.all([postgresProxy.close(), redisProxy.close()]);
    });

    const runs = new Map<string, number>();
    const completed: string[][] = [];
    context.use(amqpPlugin());
    await context.addRoutes((r) =>
      r
        .from<{ id: string; order: string }>(`amqp:queue:${queue}?prefetch=5&maxRedeliveries=20`)
        .onException([RedisStoreError, PostgresStoreError], { maximumRedeliveries: 30, redeliveryDelay: 100 })
        .idempotentConsumer("${body.id}", { repository: postgres.idempotentRepository("parts") })
        .process((exchange) => {
          runs.set(exchange.body.id, (runs.get(exchange.body.id) ?? 0) + 1);
        })
        .aggregate("${body.order}", {
          strategy: groupedBodies(),
          repository: groups,
          partId: "${body.id}",
          completionSize: 5,
        })
        .process((exchange) => {
          completed.push((exchange.body as Array<{ id: string }>).map((part) => part.id).sort());
        }),
    );
    await context.start();

    const channel = await broker.createConfirmChannel();
    const publish = (count: number, from: number) => {
      for (let index = from; index < from + count; index++) {
        const part = { id: `p${index}`, order: `o${index % 10}` };
        channel.sendToQueue(queue, Buffer.from(JSON.stringify(part)), { contentType: "application/json" });
      }
    };
    publish(20, 0);
    await channel.waitForConfirms();
    await waitFor("20 parts processed", () => runs.size === 20);
    postgresProxy.cut();
    redisProxy.cut();
    publish(30, 20);
    await channel.waitForConfirms();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const whileGone = runs.size;
    postgresProxy.restore();
    redisProxy.restore();
    await waitFor("all 10 orders", () => completed.length === 10, 30_000);

    expect(whileGone).toBe(20);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(runs.size).toBe(50);
    expect(completed.flat().sort()).toEqual(Array.from({ length: 50 }, (_, index) => `p${index}`).sort());
    expect((await channel.checkQueue(`${queue}.dlq`)).messageCount).toBe(0);
    await channel.close();
  }, 60_000);
});
