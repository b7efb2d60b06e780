/**
 * The Lua scripts of the Redis store: each change of an entry (its value, its size, the store's byte
 * count, the first-set order, the write order that eviction follows, and the notification to the
 * other instances) happens in one script, so Redis runs it as one step and no instance sees half
 * of it. Keys of a store (P is state.redis_key_prefix + the store's name + ':'): P e:<key> (the
 * value as JSON), P sizes (hash key -> bytes), P bytes (their sum), P seq (a counter), P order
 * (zset, first set), P lru (zset, last written), channel P changes.
 */

const REMOVE = `
local function remove(p, k)
  local size = redis.call('HGET', p .. 'sizes', k)
  if not size then return false end
  redis.call('DEL', p .. 'e:' .. k)
  redis.call('HDEL', p .. 'sizes', k)
  redis.call('ZREM', p .. 'order', k)
  redis.call('ZREM', p .. 'lru', k)
  redis.call('DECRBY', p .. 'bytes', size)
  return true
end
`;

/**
 * ARGV: prefix, key, json, size, maxBytes, past (evict|refuse), instance id, expected (the JSON the
 * caller read, for update's compare-and-set), whether to compare. Answers {status, bytes, entries,
 * evicted...}: status 0 stored, -1 larger than the whole budget, -2 does not fit (refuse), -3 the
 * entry changed since it was read (update retries).
 */
export const SET_SCRIPT = `${REMOVE}
local p, k, json = ARGV[1], ARGV[2], ARGV[3]
local size, max = tonumber(ARGV[4]), tonumber(ARGV[5])
if ARGV[9] == '1' then
  local now = redis.call('GET', p .. 'e:' .. k)
  if (now or '') ~= ARGV[8] then return {-3, 0, 0} end
end
if size > max then return {-1, size, 0} end
local old = tonumber(redis.call('HGET', p .. 'sizes', k) or '0')
local bytes = tonumber(redis.call('GET', p .. 'bytes') or '0')
local growth = size - old
if ARGV[6] == 'refuse' and bytes + growth > max then return {-2, growth, 0} end
redis.call('SET', p .. 'e:' .. k, json)
redis.call('HSET', p .. 'sizes', k, size)
local seq = redis.call('INCR', p .. 'seq')
redis.call('ZADD', p .. 'order', 'NX', seq, k)
redis.call('ZADD', p .. 'lru', seq, k)
bytes = redis.call('INCRBY', p .. 'bytes', growth)
redis.call('PUBLISH', p .. 'changes', cjson.encode({from = ARGV[7], key = k, value = json}))
local result = {0, 0, 0}
while bytes > max do
  local victim = redis.call('ZRANGE', p .. 'lru', 0, 0)[1]
  if not victim or victim == k then break end
  remove(p, victim)
  -- from the instance that evicted, which announces its victims itself (the others hear them here)
  redis.call('PUBLISH', p .. 'changes', cjson.encode({from = ARGV[7], key = victim}))
  table.insert(result, victim)
  bytes = tonumber(redis.call('GET', p .. 'bytes') or '0')
end
result[2] = bytes
result[3] = redis.call('ZCARD', p .. 'order')
return result
`;

/** ARGV: prefix, key, instance id. Answers 1 when the key had a value. */
export const DELETE_SCRIPT = `${REMOVE}
if not remove(ARGV[1], ARGV[2]) then return 0 end
redis.call('PUBLISH', ARGV[1] .. 'changes', cjson.encode({from = ARGV[3], key = ARGV[2]}))
return 1
`;
