-- include: clock
-- KEYS: game. ARGV: version, revision, new revision, state, view, open until
-- (epoch ms)[, clock spec, the rest of state and view from their first
-- marker on (ARGV 4 and 5 then hold the part before it), as create_game.lua].
-- Stores the game with a seat taken (the caller's new state and view) when it
-- is still at that version and revision and the lobby's time (the store's
-- clock) is not up: returns {'taken', now}. With a clock spec the game's
-- clock starts at this moment (its first-move deadline from now: a clock
-- does not run while a seat waits): the texts' markers are filled in and the
-- deadline kept beside them (lib/clock.lua), as at a game's creation. Else
-- nothing changes: {'expired'}, or {'moved', version, revision, state} (the
-- caller judges the join again on them), or nil when there is no game. The
-- version stays: a join is not a move.
local found = redis.call('HMGET', KEYS[1], 'version', 'revision', 'state')
if not found[1] then
    return nil
end
if tonumber(found[1]) ~= tonumber(ARGV[1]) or (found[2] or '') ~= ARGV[2] then
    return {'moved', found[1], found[2] or '', found[3]}
end
local now = clock_now()
if now >= tonumber(ARGV[6]) then
    return {'expired'}
end
local state, view, deadline = ARGV[4], ARGV[5], nil
if ARGV[7] then
    local _, values
    _, values, deadline = clock_values(ARGV[7], now)
    state = clock_fill(state, ARGV[8], values)
    view = clock_fill(view, ARGV[9], values)
end
redis.call('HSET', KEYS[1], 'revision', ARGV[3], 'state', state, 'view', view)
if deadline then
    redis.call('HSET', KEYS[1], 'deadline', string.format('%d', deadline))
end
return {'taken', now}
