import type {
  CompletedGroup,
  SharedAggregationRepository,
  SharedGroup,
  SharedGroupWrite,
} from "@routekit/core";
import { decodeStoredExchange, encodeStoredExchange } from "@routekit/core";
import type { Redis } from "ioredis";
import { COMPLETE_GROUP, RECOVER_GROUPS, WRITE_GROUP } from "./aggregation-scripts.js";
import { redisCommand } from "./redis-command.js";
import { deleteMatching } from "./redis-idempotent-repository.js";
import { checkInteger, checkName } from "./redis-options.js";
import { describeError, preview, RedisStoreError } from "./redis-store-error.js";

/** Options of an aggregation repository on Redis. */
export interface RedisAggregationRepositoryOptions {
  /**
   * How long the part ids of a completed group are kept, in ms, so that a part delivered again
   * after its group completed is recognised (the aggregate's `partId` option). Default 3600000.
   */
  partIdRetentionMs?: number;
}

/** An aggregation repository whose groups every instance shares. */
export interface RedisAggregationRepository extends SharedAggregationRepository {
  /** Deletes every group and completed group of this repository. */
  clear(): Promise<void>;
}

/**
 * Keys (the `{name}` hash tag keeps one repository in one Redis Cluster slot):
 * - `<prefix>:aggregation:{<name>}:group:<key>` hash: version, data, parts, timeoutAt
 * - `<prefix>:aggregation:{<name>}:open` sorted set: open groups scored by timeoutAt (+inf: none)
 * - `<prefix>:aggregation:{<name>}:completed` sorted set: completion ids scored by claim time
 * - `<prefix>:aggregation:{<name>}:completed:<id>` hash: key, data, attempts
 */
export function createRedisAggregationRepository(
  client: Redis,
  where: string,
  keyPrefix: string,
  name: string,
  options: RedisAggregationRepositoryOptions = {},
): RedisAggregationRepository {
  const site = `aggregationRepository('${checkName("aggregationRepository()", name)}')`;
  const retention = checkInteger(site, "partIdRetentionMs", options.partIdRetentionMs, 3_600_000, 1);
  const base = `${keyPrefix}:aggregation:{${name}}:`;
  const open = `${base}open`;
  const completed = `${base}completed`;
  const groupKey = (key: string) => `${base}group:${key}`;
  const at = `${where}, aggregation repository '${name}'`;

  const corrupt = (redisKey: string, problem: string): RedisStoreError =>
    new RedisStoreError("VALUE_CORRUPT", `${at}: Redis key '${redisKey}' ${problem}`);

  const decode = (redisKey: string, data: string) => {
    try {
      return decodeStoredExchange(data);
    } catch (error) {
      throw corrupt(redisKey, `does not hold a group written by routekit: ${describeError(error)}`);
    }
  };

  const encode = (key: string, write: SharedGroupWrite): string => {
    try {
      return encodeStoredExchange(write.exchange);
    } catch (error) {
      throw new RedisStoreError(
        "VALUE_CORRUPT",
        `${at}: the group '${key}' cannot be stored: ${describeError(error)}`,
      );
    }
  };

  const script = (what: string, source: string, keys: string[], args: Array<string | number>) =>
    redisCommand(at, what, () => client.eval(source, keys.length, ...keys, ...args));

  return {
    shared: true,
    async read(key) {
      const redisKey = groupKey(key);
      const fields = await redisCommand(at, `reading group '${redisKey}'`, () => client.hgetall(redisKey));
      if (Object.keys(fields).length === 0) return undefined;
      const version = Number(fields.version);
      if (!Number.isInteger(version) || version < 1) {
        throw corrupt(redisKey, `has version ${preview(fields.version)}, expected a positive integer`);
      }
      let partIds: unknown;
      try {
        partIds = JSON.parse(fields.parts ?? "");
      } catch {
        partIds = undefined;
      }
      if (!Array.isArray(partIds) || !partIds.every((id) => typeof id === "string")) {
        throw corrupt(redisKey, `has parts ${preview(fields.parts)}, expected a JSON array of strings`);
      }
      const data = fields.data ?? "";
      const timeoutAt =
        fields.timeoutAt === undefined || fields.timeoutAt === "" ? undefined : Number(fields.timeoutAt);
      const group: SharedGroup = {
        exchange: data === "" ? undefined : decode(redisKey, data),
        version,
        partIds,
        timeoutAt: timeoutAt !== undefined && Number.isFinite(timeoutAt) ? timeoutAt : undefined,
      };
      return group;
    },
    async write(key, write) {
      const data = encode(key, write);
      const written = await script(
        `writing group '${groupKey(key)}'`,
        WRITE_GROUP,
        [groupKey(key), open],
        [
          write.version === undefined ? "" : String(write.version),
          data,
          JSON.stringify(write.partIds),
          write.timeoutAt === undefined ? "" : String(write.timeoutAt),
          key,
        ],
      );
      return written === 1;
    },
    async complete(key, id, write) {
      const data = encode(key, write);
      const done = await script(
        `completing group '${groupKey(key)}'`,
        COMPLETE_GROUP,
        [groupKey(key), open, completed, `${completed}:${id}`],
        [
          write.version === undefined ? "" : String(write.version),
          data,
          JSON.stringify(write.partIds),
          key,
          id,
          Date.now(),
          retention,
        ],
      );
      return done === 1;
    },
    async confirm(id) {
      await redisCommand(at, `confirming completed group ${id}`, () =>
        client.multi().del(`${completed}:${id}`).zrem(completed, id).exec(),
      );
    },
    async recover(olderThanMs, limit) {
      const now = Date.now();
      const rows = (await script(
        "recovering completed groups",
        RECOVER_GROUPS,
        [completed],
        [now - olderThanMs, now, limit, `${completed}:`],
      )) as Array<[string, string | null, string | null, number]>;
      const groups: CompletedGroup[] = [];
      for (const [id, key, data, attempts] of rows) {
        const redisKey = `${completed}:${id}`;
        if (typeof key !== "string" || typeof data !== "string") {
          throw corrupt(redisKey, "lacks the fields key and data of a completed group");
        }
        groups.push({ id, key, exchange: decode(redisKey, data), attempts: Number(attempts) });
      }
      return groups;
    },
    async expired(now, limit) {
      return redisCommand(at, "listing timed-out groups", () =>
        client.zrangebyscore(open, "-inf", now, "LIMIT", 0, limit),
      );
    },
    async keys() {
      return redisCommand(at, "listing open groups", () => client.zrange(open, 0, -1));
    },
    async clear() {
      await deleteMatching(client, at, `${base}*`);
    },
  };
}
