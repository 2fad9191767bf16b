-- include: now_ms
-- KEYS: the pool by rating and the pool by expiry (sorted sets of the
-- waiting seeks' ids), the pool's notes (hash: id -> "player range
-- created_ms"), one of each per pool (the same clock and rated); the new
-- seek's hash; KEYS[5]: the poster's set (its waiting seeks' ids by
-- expiry, across every pool); KEYS[6]: the set of the players the poster
-- blocks. ARGV (arguments.py): SeekArgs.
-- Every key is in the one `{seeks}` slot: the paired seek's hash, named from
-- the prefix, lives beside the pool on the same node, so the pairing is one
-- atomic step on any instance, a Cluster too.
-- Drops the expired seeks from the pool (the store's clock), then pairs the
-- new seek with the oldest compatible one among all those rated within its
-- range (another player, whose own range holds the new seek's rating, and
-- neither of the two blocks the other): both
-- hashes say 'paired' with the game id and the seats (the older seek's
-- player seat 0), the other leaves the pool, and it returns {'paired', its
-- id, its player}. Else the new seek waits in the pool: {'waiting', expires};
-- or, when the poster already has as many waiting as it may, it is not
-- made: {'too_many', the count} (issue 36: one player held 20 seeks and sat
-- on the 20 games they paired into).
-- Only ids within range are looked at, and their notes are read in batches
-- (no hash per candidate), so many waiting seeks cost little and hide none.
local function forget(id)
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
    forget(id)
end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
local rating, range = tonumber(seek_rating), tonumber(seek_range)
local candidates = redis.call('ZRANGEBYSCORE', KEYS[1], rating - range, rating + range, 'WITHSCORES')
local best, best_player, best_created = nil, nil, nil
local BATCH = 500
for from = 1, #candidates, 2 * BATCH do
    local ids = {}
    for i = from, math.min(from + 2 * BATCH - 1, #candidates), 2 do
        ids[#ids + 1] = candidates[i]
    end
    local notes = redis.call('HMGET', KEYS[3], unpack(ids))
    for i, id in ipairs(ids) do
        local note = notes[i]
        if note then
            local player, their_range, created = string.match(note, '^(%S+) (%d+) (%d+)$')
            local their_rating = tonumber(candidates[from + 2 * (i - 1) + 1])
            if player ~= player_id and math.abs(their_rating - rating) <= tonumber(their_range)
                    and redis.call('SISMEMBER', KEYS[6], player) == 0
                    and redis.call('SISMEMBER', blocks_prefix .. player, player_id) == 0 then
                created = tonumber(created)
                if not best or created < best_created then
                    best, best_player, best_created = id, player, created
                end
            end
        end
    end
end
local expires = now + tonumber(ttl_ms)
local fields = {'id', seek_id, 'player', player_id, 'rating', seek_rating, 'range', seek_range, 'created_ms', now,
    'expires_ms', expires, 'spec', spec}
if best then
    forget(best)
    redis.call('ZREM', player_prefix .. best_player, best)
    redis.call('HSET', seek_prefix .. best, 'status', 'paired', 'game', game_id, 'seat', 0, 'opponent', player_id)
    redis.call('HSET', KEYS[4], 'status', 'paired', 'game', game_id, 'seat', 1, 'opponent', best_player,
        unpack(fields))
    redis.call('PEXPIRE', KEYS[4], keep_ms)
    return {'paired', best, best_player}
end
local waiting = redis.call('ZCARD', KEYS[5])
if waiting >= tonumber(most_waiting) then
    return {'too_many', waiting}
end
redis.call('ZADD', KEYS[5], expires, seek_id)
redis.call('PEXPIRE', KEYS[5], ttl_ms)
redis.call('HSET', KEYS[4], 'status', 'waiting', unpack(fields))
redis.call('PEXPIRE', KEYS[4], tonumber(ttl_ms) + tonumber(keep_ms))
redis.call('ZADD', KEYS[1], rating, seek_id)
redis.call('ZADD', KEYS[2], expires, seek_id)
redis.call('HSET', KEYS[3], seek_id, player_id .. ' ' .. seek_range .. ' ' .. now)
return {'waiting', expires}
