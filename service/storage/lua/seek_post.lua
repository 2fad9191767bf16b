-- include: now_ms
-- KEYS: the pool by rating and the pool by expiry (sorted sets of the
-- waiting seeks' ids, one pair per pool: the same clock and rated), the new
-- seek's hash. ARGV: seek id, player id, rating, range, ttl ms, game id
-- (chosen beforehand), keep ms (how long a seek's hash stays readable), the
-- seeks' key prefix, how many waiting seeks within range to look at, the
-- caller's text of the seek (its clock and rated, kept with it).
-- Every key is in the one `{seeks}` slot: the candidates' hashes, named from
-- the prefix, live beside the pools on the same node, so the pairing is one
-- atomic step on any instance, a Cluster too.
-- Drops the expired seeks from the pool (the store's clock), then pairs the
-- new seek with the oldest compatible one among those rated within its range
-- (another player, whose own range holds the new seek's rating): both hashes
-- say 'paired' with the game id and the seats (the older seek's player seat
-- 0), the candidate leaves the pool, and it returns {'paired', candidate id,
-- candidate player}. Else the new seek waits in the pool: {'waiting', expires}.
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
for _, id in ipairs(expired) do
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
end
local rating, range = tonumber(ARGV[3]), tonumber(ARGV[4])
local candidates = redis.call('ZRANGEBYSCORE', KEYS[1], rating - range, rating + range, 'LIMIT', 0, tonumber(ARGV[9]))
local best, best_player, best_created = nil, nil, nil
for _, id in ipairs(candidates) do
    local found = redis.call('HMGET', ARGV[8] .. id, 'player', 'rating', 'range', 'status', 'created_ms')
    if not found[1] or found[4] ~= 'waiting' then
        redis.call('ZREM', KEYS[1], id)
        redis.call('ZREM', KEYS[2], id)
    elseif found[1] ~= ARGV[2] and math.abs(tonumber(found[2]) - rating) <= tonumber(found[3]) then
        local created = tonumber(found[5])
        if not best or created < best_created then
            best, best_player, best_created = id, found[1], created
        end
    end
end
local fields = {'id', ARGV[1], 'player', ARGV[2], 'rating', ARGV[3], 'range', ARGV[4], 'created_ms', now,
    'expires_ms', now + tonumber(ARGV[5]), 'spec', ARGV[10]}
if best then
    redis.call('ZREM', KEYS[1], best)
    redis.call('ZREM', KEYS[2], best)
    redis.call('HSET', ARGV[8] .. best, 'status', 'paired', 'game', ARGV[6], 'seat', 0, 'opponent', ARGV[2])
    redis.call('HSET', KEYS[3], 'status', 'paired', 'game', ARGV[6], 'seat', 1, 'opponent', best_player,
        unpack(fields))
    redis.call('PEXPIRE', KEYS[3], ARGV[7])
    return {'paired', best, best_player}
end
redis.call('HSET', KEYS[3], 'status', 'waiting', unpack(fields))
redis.call('PEXPIRE', KEYS[3], tonumber(ARGV[5]) + tonumber(ARGV[7]))
redis.call('ZADD', KEYS[1], rating, ARGV[1])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[5]), ARGV[1])
return {'waiting', now + tonumber(ARGV[5])}
