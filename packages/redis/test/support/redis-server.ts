import { randomUUID } from "node:crypto";
import { howToStart, skipForMissing } from "@routekit/test-support";
import { Redis } from "ioredis";

/** The Redis the tests use (loopback only). */
export const redisHost = "127.0.0.1";
export const redisPort = Number(process.env.REDIS_PORT ?? 6379);

async function probe(): Promise<boolean> {
  const client = new Redis({
    host: redisHost,
    port: redisPort,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (error) {
    skipForMissing(`Redis on ${redisHost}:${redisPort}`, howToStart("Redis"), error);
    return false;
  } finally {
    client.disconnect();
  }
}

/** True when Redis answers; false (after one line saying how to start it) when it does not. */
export const redisAvailable = await probe();

/** A name of its own for one test (repository names and key prefixes). */
export function uniqueName(label: string): string {
  return `rk-test-${label}-${randomUUID().slice(0, 8)}`;
}

/** A plain client for looking at keys from outside routekit and cleaning up. */
export function inspector(): Redis {
  const client = new Redis({ host: redisHost, port: redisPort });
  client.on("error", () => {});
  return client;
}

/** Deletes every key under `prefix`. */
export async function deletePrefix(client: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) await client.del(...keys);
  } while (cursor !== "0");
}
