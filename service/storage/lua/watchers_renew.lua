-- include: now_ms
-- KEYS: the game's watchers (sorted set: one member per open event stream,
-- scored by when its lease ends). ARGV: the lease in ms, then the members
-- whose leases this call renews (none: only counts).
-- Renews the members' leases, drops the streams whose lease ended (their
-- process died without saying goodbye) and answers how many are left.
local lease = tonumber(ARGV[1])
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], now + lease, ARGV[i])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if #ARGV > 1 then
  redis.call('PEXPIRE', KEYS[1], lease)
end
return redis.call('ZCARD', KEYS[1])
