-- include: now_ms
-- KEYS: one shard of the deadline index. ARGV: lease_ms, limit.
-- Leases the games whose indexed deadline has come (score <= now) to the
-- caller: each is scored now + lease_ms, so other timekeepers leave it
-- alone until the lease ends (and take it over if the caller died).
-- Returns {now, game, leased score, game, leased score, ...}.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local leased = now + tonumber(ARGV[1])
local answer = {now}
for _, game in ipairs(due) do
    redis.call('ZADD', KEYS[1], leased, game)
    answer[#answer + 1] = game
    answer[#answer + 1] = leased
end
return answer
