-- A ring's score is the round, plus a fraction that orders the clients of
-- one round by their oldest job's number (first come, first served): the
-- number modulo 2^20 over 2^20, exact in a double below round 2^33.
-- `place` puts a client in `round`; `join` puts a client whose list was
-- empty in the ring's current round (KEYS-named `round_key`), or the next
-- if it was served in the current one (`served`, a sorted set by round).
local function place(ring, round, client, job)
    local number = tonumber(string.match(job, '^%d+'))
    -- Formatted here: Redis would pass a Lua number on with only 14 digits.
    redis.call('ZADD', ring, string.format('%.17g', round + (number % 1048576) / 1048576), client)
end
local function join(ring, round_key, served, client, job)
    local round = tonumber(redis.call('GET', round_key) or '0')
    local last = redis.call('ZSCORE', served, client)
    if last and tonumber(last) >= round then
        round = tonumber(last) + 1
    end
    place(ring, round, client, job)
end
