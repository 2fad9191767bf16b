-- KEYS: the analysis's result, the pending set, taken. ARGV: the game id,
-- the analysis (JSON), its TTL in seconds. Stores it unless one is stored
-- already (a job taken over from a slow worker may finish twice), and ends
-- the job. Returns 1 when this call stored it, 0 when it was there.
local stored = redis.call('SET', KEYS[1], ARGV[2], 'NX', 'EX', ARGV[3])
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if stored then
    return 1
end
return 0
