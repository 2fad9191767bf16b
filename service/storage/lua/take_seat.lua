-- include: clock, compare_and_set
-- KEYS: game[, record]. ARGV: version, revision, new revision, state, view,
-- open until (epoch ms)[, the clock check's three (lib/clock.lua), the first
-- entry of the game's clock log]; with a record key (the join's
-- Idempotency-Key), the record's TTL and text come last, and the record is
-- written with the take: a join that took the seat has its answer recorded.
-- Stores the game with a seat taken (the caller's new state and view) when it
-- is still at that version and revision and the lobby's time (the store's
-- clock) is not up: returns {'taken', now}. With a clock check the game's
-- clock starts at this moment (its first-move deadline from now: a clock
-- does not run while a seat waits), its texts written for the caller's
-- reckoning of this clock (lib/clock.lua), and the deadline is kept beside
-- them, as at a game's creation. Else nothing changes: {'expired', now},
-- {'skew', now} (the texts were written for a time too far from this
-- clock's), or the answer of lib/compare_and_set.lua when the game is gone
-- or has moved on. The version stays: a
-- join is not a move; 'changed' names the version whose body the join
-- replaced (amend_game.lua says why).
local found, moved = compare_and_set(ARGV[1], ARGV[2])
if not found then
    return moved
end
-- Without the record's two, six arguments; a clock check adds four.
local record = KEYS[2]
local given = #ARGV
if record then
    given = given - 2
end
local clocked = given > 6
local now = clock_now()
if now >= tonumber(ARGV[6]) then
    return {'expired', now}
end
local deadline = nil
if clocked then
    local refused
    refused, now, deadline = clock_check(7, nil)
    if refused then
        return {refused, now}
    end
end
redis.call('HSET', KEYS[1], 'revision', ARGV[3], 'state', ARGV[4], 'view', ARGV[5], 'changed', ARGV[1])
if clocked then
    -- The clock starts afresh: so does this version's entry in its log.
    redis.call('HSET', KEYS[1], 'clock:' .. ARGV[1], ARGV[10])
end
if deadline then
    redis.call('HSET', KEYS[1], 'deadline', deadline)
end
if record then
    redis.call('SET', record, ARGV[given + 2], 'PX', ARGV[given + 1])
end
return {'taken', now}
