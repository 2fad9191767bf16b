-- include: now_ms
-- KEYS: the pool (sorted set of waiting seek ids by expiry, one per clock and
-- rated), the new seek's hash. ARGV: seek id, player id, rating, range, ttl
-- ms, game id (chosen beforehand), keep ms (how long a seek's hash stays
-- readable), the seeks' key prefix, how many waiting seeks to look at, the
-- caller's text of the seek (its clock and rated, kept with it).
-- Every key is in the one `{seeks}` slot: the candidates' hashes, named from
-- the prefix, live beside the pool on the same node, so the pairing is one
-- atomic step on any instance, a Cluster too.
-- Drops the expired seeks from the pool (the store's clock), then pairs the
-- new seek with the oldest compatible one (another player, each rating
-- within the other's range): both hashes say 'paired' with the game id and
-- the seats (the older seek's player seat 0), the candidate leaves the pool,
-- and it returns {'paired', candidate id, candidate player}. Else the new
-- seek waits in the pool: {'waiting', expires ms}.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local rating, range = tonumber(ARGV[3]), tonumber(ARGV[4])
local candidates = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[9]) - 1)
for _, id in ipairs(candidates) do
    local key = ARGV[8] .. id
    local found = redis.call('HMGET', key, 'player', 'rating', 'range', 'status')
    if not found[1] or found[4] ~= 'waiting' then
        redis.call('ZREM', KEYS[1], id)
    elseif found[1] ~= ARGV[2] then
        local distance = math.abs(tonumber(found[2]) - rating)
        if distance <= range and distance <= tonumber(found[3]) then
            redis.call('ZREM', KEYS[1], id)
            redis.call('HSET', key, 'status', 'paired', 'game', ARGV[6], 'seat', 0, 'opponent', ARGV[2])
            redis.call('HSET', KEYS[2], 'id', ARGV[1], 'player', ARGV[2], 'rating', ARGV[3], 'range', ARGV[4],
                'status', 'paired', 'game', ARGV[6], 'seat', 1, 'opponent', found[1],
                'created_ms', now, 'expires_ms', now + tonumber(ARGV[5]), 'spec', ARGV[10])
            redis.call('PEXPIRE', KEYS[2], ARGV[7])
            return {'paired', id, found[1]}
        end
    end
end
local expires = now + tonumber(ARGV[5])
redis.call('HSET', KEYS[2], 'id', ARGV[1], 'player', ARGV[2], 'rating', ARGV[3], 'range', ARGV[4],
    'status', 'waiting', 'created_ms', now, 'expires_ms', expires, 'spec', ARGV[10])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[5]) + tonumber(ARGV[7]))
redis.call('ZADD', KEYS[1], expires, ARGV[1])
return {'waiting', expires}
