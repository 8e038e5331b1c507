// Lua scripts of the Redis aggregation repository. Each runs atomically in Redis, so a version
// check and the write it guards cannot be separated by another instance's write.

// KEYS: group hash, open-groups sorted set. ARGV: expected version ('' = none), data, parts,
// timeoutAt ('' = none), correlation key.
export const WRITE_GROUP = `local current = redis.call('HGET', KEYS[1], 'version')
if current == false then current = '' end
if current ~= ARGV[1] then return 0 end
local version = (tonumber(current) or 0) + 1
redis.call('HSET', KEYS[1], 'version', version, 'data', ARGV[2], 'parts', ARGV[3], 'timeoutAt', ARGV[4])
redis.call('PERSIST', KEYS[1])
if ARGV[4] == '' then redis.call('ZADD', KEYS[2], '+inf', ARGV[5]) else redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5]) end
return 1`;

// KEYS: group hash, open-groups sorted set, completed sorted set, completed hash. ARGV: expected
// version, data, parts, correlation key, completion id, now, how long a closed group's part ids
// are kept (ms).
export const COMPLETE_GROUP = `local current = redis.call('HGET', KEYS[1], 'version')
if current == false then current = '' end
if current ~= ARGV[1] then return 0 end
redis.call('ZREM', KEYS[2], ARGV[4])
if ARGV[3] == '[]' then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'version', (tonumber(current) or 0) + 1, 'data', '', 'parts', ARGV[3], 'timeoutAt', '')
  redis.call('PEXPIRE', KEYS[1], ARGV[7])
end
redis.call('HSET', KEYS[4], 'key', ARGV[4], 'data', ARGV[2], 'attempts', 0)
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[5])
return 1`;

// KEYS: completed sorted set. ARGV: completed before (ms), now, limit, completed hash prefix.
// Claims the groups by moving their score to now, so no other instance takes them meanwhile.
export const RECOVER_GROUPS = `local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local result = {}
for _, id in ipairs(ids) do
  local hash = ARGV[4] .. id
  if redis.call('EXISTS', hash) == 1 then
    redis.call('ZADD', KEYS[1], ARGV[2], id)
    local attempts = redis.call('HINCRBY', hash, 'attempts', 1)
    table.insert(result, {id, redis.call('HGET', hash, 'key'), redis.call('HGET', hash, 'data'), attempts})
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return result`;
