import type { Redis } from "ioredis";
import { redisCommand } from "./redis-command.js";
import { checkName } from "./redis-options.js";

/** The buckets of one quota key (the shape `QuotaBuckets` of @routekit/llm). */
export interface RedisQuotaBuckets {
  requestsPerMs: number;
  requestCapacity: number;
  tokensPerMs: number;
  tokenCapacity: number;
  idleMs: number;
}

/** Provider quota buckets shared by every instance (the `QuotaStore` of @routekit/llm). */
export interface RedisQuotaStore {
  take(key: string, tokens: number, buckets: RedisQuotaBuckets): Promise<number>;
  pause(key: string, ms: number): Promise<void>;
}

// A token bucket pair (requests, tokens) and a pause, on the server's clock so every instance
// agrees. KEYS: the key's hash. ARGV: requests per ms, request capacity, tokens per ms, token
// capacity, tokens wanted, idle ms. Answers 0 when taken, else the ms to wait (nothing taken).
const TAKE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'r', 'k', 'u', 'p')
local paused = tonumber(state[4] or '0')
if paused > now then return paused - now end
local rr, rc, tr, tc, need = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local r = tonumber(state[1] or rc)
local k = tonumber(state[2] or tc)
local elapsed = math.max(0, now - tonumber(state[3] or now))
r = math.min(rc, r + elapsed * rr)
k = math.min(tc, k + elapsed * tr)
local wait = 0
if rr > 0 and r < 1 then wait = math.ceil((1 - r) / rr) end
if tr > 0 and k < need then wait = math.max(wait, math.ceil((need - k) / tr)) end
if wait == 0 then
  if rr > 0 then r = r - 1 end
  if tr > 0 then k = k - need end
end
redis.call('HSET', KEYS[1], 'r', tostring(r), 'k', tostring(k), 'u', now)
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return wait`;

// KEYS: the key's hash. ARGV: pause ms. A longer pause already set stays.
const PAUSE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ms = now + tonumber(ARGV[1])
local paused = tonumber(redis.call('HGET', KEYS[1], 'p') or '0')
if until_ms > paused then redis.call('HSET', KEYS[1], 'p', until_ms) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) + 60000) end
return 1`;

/** Most characters of a quota key (provider/model/tenant) stored as it is; longer ones are refused. */
const MAX_KEY_LENGTH = 512;

export function createRedisQuotaStore(
  client: Redis,
  where: string,
  keyPrefix: string,
  name: string,
): RedisQuotaStore {
  checkName("quotaStore()", name);
  const base = `${keyPrefix}:quota:${name}:`;
  const at = `${where}, quota store '${name}'`;
  const redisKey = (key: string): string => {
    if (typeof key !== "string" || key === "" || key.length > MAX_KEY_LENGTH) {
      throw new TypeError(
        `${at}: a quota key must be 1 to ${MAX_KEY_LENGTH} characters (found ${typeof key === "string" ? key.length : typeof key})`,
      );
    }
    return base + key;
  };
  return {
    async take(key, tokens, buckets) {
      const wait = await redisCommand(at, `take from '${key}'`, () =>
        client.eval(
          TAKE,
          1,
          redisKey(key),
          String(buckets.requestsPerMs),
          String(buckets.requestCapacity),
          String(buckets.tokensPerMs),
          String(buckets.tokenCapacity),
          String(tokens),
          String(Math.ceil(buckets.idleMs)),
        ),
      );
      return Number(wait);
    },
    async pause(key, ms) {
      await redisCommand(at, `pause '${key}'`, () =>
        client.eval(PAUSE, 1, redisKey(key), String(Math.max(1, Math.ceil(ms)))),
      );
    },
  };
}
