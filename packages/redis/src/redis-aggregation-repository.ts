import type {
  CompletedGroup,
  SharedAggregationRepository,
  SharedGroup,
  SharedGroupWrite,
  StoredExchange,
} from "@routekit/core/internal";
import { decodeStoredExchange, encodeStoredExchange } from "@routekit/core/internal";
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

/** One repository's connection, where it is, and its keys. */
interface Scope {
  readonly client: Redis;
  readonly at: string;
  readonly groupKey: (key: string) => string;
  readonly completed: string;
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
  const scope: Scope = { client, at, groupKey, completed };

  const script = (what: string, source: string, keys: string[], args: Array<string | number>) =>
    redisCommand(at, what, () => client.eval(source, keys.length, ...keys, ...args));

  return {
    shared: true,
    read: (key) => readGroup(scope, key),
    async write(key, write) {
      const data = encode(scope, key, write);
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
      const data = encode(scope, key, write);
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
    recover: (olderThanMs, limit) => recoverGroups(scope, olderThanMs, limit),
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

function corrupt(scope: Scope, redisKey: string, problem: string): RedisStoreError {
  return new RedisStoreError("VALUE_CORRUPT", `${scope.at}: Redis key '${redisKey}' ${problem}`);
}

function decode(scope: Scope, redisKey: string, data: string): StoredExchange {
  try {
    return decodeStoredExchange(data);
  } catch (error) {
    throw corrupt(scope, redisKey, `does not hold a group written by routekit: ${describeError(error)}`);
  }
}

function encode(scope: Scope, key: string, write: SharedGroupWrite): string {
  try {
    return encodeStoredExchange(write.exchange);
  } catch (error) {
    throw new RedisStoreError(
      "VALUE_CORRUPT",
      `${scope.at}: the group '${key}' cannot be stored: ${describeError(error)}`,
    );
  }
}

async function readGroup(scope: Scope, key: string): Promise<SharedGroup | undefined> {
  const redisKey = scope.groupKey(key);
  const fields = await redisCommand(scope.at, `reading group '${redisKey}'`, () =>
    scope.client.hgetall(redisKey),
  );
  if (Object.keys(fields).length === 0) return undefined;
  const version = Number(fields.version);
  if (!Number.isInteger(version) || version < 1) {
    throw corrupt(scope, redisKey, `has version ${preview(fields.version)}, expected a positive integer`);
  }
  let partIds: unknown;
  try {
    partIds = JSON.parse(fields.parts ?? "");
  } catch {
    partIds = undefined;
  }
  if (!Array.isArray(partIds) || !partIds.every((id) => typeof id === "string")) {
    throw corrupt(scope, redisKey, `has parts ${preview(fields.parts)}, expected a JSON array of strings`);
  }
  const data = fields.data ?? "";
  const timeoutAt =
    fields.timeoutAt === undefined || fields.timeoutAt === "" ? undefined : Number(fields.timeoutAt);
  return {
    exchange: data === "" ? undefined : decode(scope, redisKey, data),
    version,
    partIds,
    timeoutAt: timeoutAt !== undefined && Number.isFinite(timeoutAt) ? timeoutAt : undefined,
  };
}

async function recoverGroups(scope: Scope, olderThanMs: number, limit: number): Promise<CompletedGroup[]> {
  const { client, at, completed } = scope;
  const now = Date.now();
  const keys = [completed];
  const args = [now - olderThanMs, now, limit, `${completed}:`];
  const rows = (await redisCommand(at, "recovering completed groups", () =>
    client.eval(RECOVER_GROUPS, keys.length, ...keys, ...args),
  )) as Array<[string, string | null, string | null, number]>;
  const groups: CompletedGroup[] = [];
  for (const [id, key, data, attempts] of rows) {
    const redisKey = `${completed}:${id}`;
    if (typeof key !== "string" || typeof data !== "string") {
      throw corrupt(scope, redisKey, "lacks the fields key and data of a completed group");
    }
    groups.push({ id, key, exchange: decode(scope, redisKey, data), attempts: Number(attempts) });
  }
  return groups;
}
