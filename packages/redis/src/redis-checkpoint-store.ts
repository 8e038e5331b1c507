import type { CheckpointRecord, CheckpointStore } from "@routekit/core";
import type { CheckpointQuery } from "@routekit/core/internal";
import type { Redis } from "ioredis";
import { redisCommand } from "./redis-command.js";
import { checkName } from "./redis-options.js";
import { RedisStoreError } from "./redis-store-error.js";

// A write goes through only over the version it read; the record and its place in the status
// index change together. KEYS: record, index prefix. ARGV: record JSON, version, new status,
// score (lease end, 0 without one), id.
const WRITE = `local current = redis.call('GET', KEYS[1])
local stored = 0
local status = nil
if current then
  local decoded = cjson.decode(current)
  stored = decoded.version
  status = decoded.status
end
if stored ~= tonumber(ARGV[2]) - 1 then return 0 end
if status then redis.call('ZREM', KEYS[2] .. status, ARGV[5]) end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2] .. ARGV[3], ARGV[4], ARGV[5])
redis.call('SADD', KEYS[2] .. ':statuses', ARGV[3])
return 1`;

const REMOVE = `local current = redis.call('GET', KEYS[1])
if not current then return 0 end
redis.call('ZREM', KEYS[2] .. cjson.decode(current).status, ARGV[1])
return redis.call('DEL', KEYS[1])`;

/**
 * Checkpoint records on Redis: each at `<prefix>:checkpoint:<name>:<id>` as JSON, indexed per
 * status in a sorted set scored by lease end, so recovery finds runs whose lease ended without
 * reading every record. Writes are one Lua script: compare the version, write, move the index entry.
 */
export function createRedisCheckpointStore(
  client: Redis,
  where: string,
  keyPrefix: string,
  name: string,
): CheckpointStore {
  checkName("checkpointStore()", name);
  const base = `${keyPrefix}:checkpoint:${name}`;
  const recordKey = (id: string): string => `${base}:${id}`;
  const index = `${base}:index:`;
  const at = `${where}, checkpoint store '${name}'`;
  const decode = (id: string, text: string | null): CheckpointRecord | undefined => {
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as CheckpointRecord;
    } catch (error) {
      throw new RedisStoreError(
        "VALUE_CORRUPT",
        `${at}: record '${id}' is not JSON (not written by routekit)`,
        { cause: error },
      );
    }
  };
  return {
    async get(id) {
      const text = await redisCommand(at, `reading record '${id}'`, () => client.get(recordKey(id)));
      return decode(id, text);
    },
    async write(record) {
      const text = JSON.stringify(record);
      const score = record.leaseUntil ?? 0;
      const written = await redisCommand(at, `writing record '${record.id}'`, () =>
        client.eval(
          WRITE,
          2,
          recordKey(record.id),
          index,
          text,
          record.version,
          record.status,
          score,
          record.id,
        ),
      );
      return written === 1;
    },
    async list(query: CheckpointQuery = {}) {
      const limit = query.limit ?? 100;
      const statuses =
        query.status === undefined
          ? await redisCommand(at, "reading the statuses", () => client.smembers(`${index}:statuses`))
          : [query.status];
      const max = query.leaseExpiredBefore === undefined ? "+inf" : `(${query.leaseExpiredBefore}`;
      const found: CheckpointRecord[] = [];
      for (const status of statuses) {
        if (found.length >= limit) break;
        const ids = await redisCommand(at, `listing '${status}' records`, () =>
          client.zrangebyscore(`${index}${status}`, "-inf", max, "LIMIT", 0, limit - found.length),
        );
        if (ids.length === 0) continue;
        const texts = await redisCommand(at, "reading records", () => client.mget(ids.map(recordKey)));
        texts.forEach((text, position) => {
          const record = decode(ids[position] as string, text);
          if (record !== undefined && record.status === status) found.push(record);
        });
      }
      return found;
    },
    async remove(id) {
      await redisCommand(at, `removing record '${id}'`, () =>
        client.eval(REMOVE, 2, recordKey(id), index, id),
      );
    },
  };
}
