-- A ring's score is the round, plus a fraction that orders the clients of
-- one round: a number the ring counts up at each take and each join, modulo
-- 2^20 over 2^20 (exact in a double below round 2^33). A client that joins
-- gets the next number; one put back after a take, that take's; one that
-- comes back in the next round because it was served in this one, the
-- number of its last take. So within a round clients go first come, first
-- served, and one that comes back after its list ran dry lines up before
-- the clients served after it: it waits behind the job in hand only.
-- A ring's state (`state`, a hash): `round`, the round of the last take;
-- `seq`, the ring's count; `start`, the number of the take that began the
-- round. `served`: the clients taken in the current round, by number.
local function place(ring, round, client, order)
    -- Formatted here: Redis would pass a Lua number on with only 14 digits.
    redis.call('ZADD', ring, string.format('%.17g', round + (order % 1048576) / 1048576), client)
end
local function join(ring, state, served, client)
    local now = redis.call('HMGET', state, 'round', 'start')
    local round, start = tonumber(now[1] or '0'), tonumber(now[2] or '0')
    local last = redis.call('ZSCORE', served, client)
    if last and start > 0 and tonumber(last) >= start then
        place(ring, round + 1, client, tonumber(last))
    else
        place(ring, round, client, redis.call('HINCRBY', state, 'seq', 1))
    end
end
-- Records that `client` was taken in `round`; returns the take's number.
local function taken(state, served, client, round)
    local now = redis.call('HMGET', state, 'round', 'start')
    local take = redis.call('HINCRBY', state, 'seq', 1)
    local start = tonumber(now[2] or '0')
    if not now[1] or round > tonumber(now[1]) then
        start = take
    end
    redis.call('HSET', state, 'round', round, 'start', start)
    redis.call('ZREMRANGEBYSCORE', served, '-inf', '(' .. start)
    redis.call('ZADD', served, take, client)
    return take
end
