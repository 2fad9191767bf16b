-- include: clock
-- KEYS: game, moves, events. ARGV: state, view, ttl_ms, revision[, clock spec,
-- the rest of state and view from their first marker on (ARGV 1 and 2 then
-- hold the part before it)].
-- Returns 0 when a game already lives under the id (nothing changed); else
-- 1, or with a clock spec the time of the creation (lib/clock.lua: the texts'
-- markers are filled in, and the game's deadline kept beside them).
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
local state, view = ARGV[1], ARGV[2]
local now, deadline = nil, nil
if ARGV[5] then
    now = clock_now()
    local _, values
    _, values, deadline = clock_values(ARGV[5], now)
    state = clock_fill(state, ARGV[6], values)
    view = clock_fill(view, ARGV[7], values)
end
redis.call('HSET', KEYS[1], 'version', 1, 'revision', ARGV[4], 'state', state, 'view', view)
if deadline then
    redis.call('HSET', KEYS[1], 'deadline', string.format('%d', deadline))
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
-- a history or events left by an expired game of the same id must not leak into this one
redis.call('DEL', KEYS[2], KEYS[3])
return now or 1
