import { connectRedis, type RedisStore } from "@routekit/redis";
import type { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkpointStoreContract } from "../../core/test/support/checkpoint-store-contract.js";
import {
  deletePrefix,
  inspector,
  redisAvailable,
  redisHost,
  redisPort,
  uniqueName,
} from "./support/redis-server.js";

describe.skipIf(!redisAvailable)("Redis checkpoint store", () => {
  let prefix: string;
  let stores: RedisStore[];
  let raw: Redis;

  beforeEach(() => {
    prefix = uniqueName("ckpt");
    stores = [];
    raw = inspector();
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    await deletePrefix(raw, prefix);
    raw.disconnect();
  });

  const connect = async (): Promise<RedisStore> => {
    const connected = await connectRedis({ host: redisHost, port: redisPort, keyPrefix: prefix });
    stores.push(connected);
    return connected;
  };

  checkpointStoreContract(async () => (await connect()).checkpointStore(`runs${stores.length}`));

  it("two connections see one store: a write made through one is the version the other must write over", async () => {
    const first = (await connect()).checkpointStore("shared");
    const second = (await connect()).checkpointStore("shared");
    const base = { owner: undefined, leaseUntil: undefined, updatedAt: 1, state: {} };
    expect(await first.write({ id: "r", version: 1, status: "running", ...base })).toBe(true);
    expect(await second.write({ id: "r", version: 1, status: "running", ...base })).toBe(false);
    expect(await second.write({ id: "r", version: 2, status: "parked", ...base })).toBe(true);
    expect((await first.get("r"))?.status).toBe("parked");
  });

  it("a record that is not JSON is refused with VALUE_CORRUPT, naming the record", async () => {
    const store = (await connect()).checkpointStore("corrupt");
    await raw.set(`${prefix}:checkpoint:corrupt:bad`, "{not json");
    await expect(store.get("bad")).rejects.toThrow(/checkpoint store 'corrupt': record 'bad' is not JSON/);
  });
});
