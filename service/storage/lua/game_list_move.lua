-- KEYS: the list to put the game on, then the lists to take it off (all in
-- one slot: the site's lists share the hash tag {games}, a player's its id).
-- ARGV: game id, score (epoch ms), how many the list keeps (0: all), ttl ms
-- (with a bound: the list goes that long after its last change).
-- The ZADD first: under maxmemory the script is refused whole, before it
-- has written anything (scripts.py).
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local kept = tonumber(ARGV[3])
if kept > 0 then
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -kept - 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
for i = 2, #KEYS do
  redis.call('ZREM', KEYS[i], ARGV[1])
end
return 1
