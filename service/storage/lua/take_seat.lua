-- include: clock, compare_and_set
-- KEYS: game[, record]. ARGV (arguments.py): SeatArgs, then ClockArgs (the
-- first entry of the game's clock log with the check) or ''; with a record
-- key (the join's Idempotency-Key), the record's TTL and text come last, and
-- the record is written with the take: a join that took the seat has its
-- answer recorded.
-- Stores the game with a seat taken (the caller's new state and view) when it
-- is still at that version and revision and the lobby's time (the store's
-- clock) is not up: returns {'taken', now}. With a clock check the game's
-- clock starts at this moment (its first-move deadline from now: a clock
-- does not run while a seat waits), its texts written for the caller's
-- reckoning of this clock (lib/clock.lua), and the deadline is kept beside
-- them, as at a game's creation. Else nothing changes: {'expired', now},
-- {'skew', now} (the texts were written for a time too far from this
-- clock's), or the answer of lib/compare_and_set.lua when the game is gone
-- or has moved on. The version stays: a join is not a move; 'changed' names
-- the version whose body the join replaced (amend_game.lua says why).
local found, moved = compare_and_set(expected_version, expected_revision)
if not found then
    return moved
end
local now = clock_now()
if now >= tonumber(open_until_ms) then
    return {'expired', now}
end
local deadline = nil
if clocked then
    local refused
    refused, now, deadline = clock_check(must_be, at_ms, new_deadline, nil)
    if refused then
        return {refused, now}
    end
end
redis.call('HSET', KEYS[1], 'revision', new_revision, 'state', state, 'view', view, 'changed', expected_version)
if clocked then
    -- The clock starts afresh: so does this version's entry in its log.
    redis.call('HSET', KEYS[1], 'clock:' .. expected_version, clock_entry)
end
if deadline then
    redis.call('HSET', KEYS[1], 'deadline', deadline)
end
if KEYS[2] then
    redis.call('SET', KEYS[2], ARGV[#ARGV], 'PX', ARGV[#ARGV - 1])
end
return {'taken', now}
