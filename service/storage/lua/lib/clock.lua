-- A clocked commit's check of the time its texts were written for
-- (storage/store_time.py). The caller reckoned the store's clock and wrote
-- every text for that time; a clock check is three arguments
-- (arguments.ClockArgs, from store.ClockCheck): must_be, the side of the
-- game's stored deadline the commit must fall on ("before" a move, "after"
-- a timeout, '-' none: a creation or a join), at_ms, the caller's time, and
-- the game's deadline after the commit ('-': none). Three arguments, not one
-- text to take apart: Lua's pattern matching cost more than the rest of the
-- check. And every argument costs some 2,500 instructions between the
-- caller (hiredis formats it) and Redis (which makes it a Lua string), so
-- what is the same for every call, the tolerance, is written here instead.

-- How far the caller's time may be from this clock: store_time.TOLERANCE_MS
-- (tests/storage/test_clock_script.py holds the two equal).
local CLOCK_TOLERANCE_MS = 1000

local function clock_now()
    -- TIME in a script that then writes needs effects replication, which
    -- Redis 7 always uses and 6.2 must be asked for.
    redis.replicate_commands()
    local time = redis.call('TIME')
    return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- (refusal or nil, now, the deadline to keep or nil) for the clock check
-- (must_be, at_ms, new_deadline) and the game's stored deadline (nil: none).
-- The refusal is 'skew' when the caller's time is too far from this clock's,
-- else 'expired' (a move at or after the stored deadline) or 'early' (a
-- timeout before it), judged by the later of the two times. The deadline
-- to keep is the caller's text, stored as it came.
local function clock_check(must_be, at_ms, new_deadline, stored)
    local at = tonumber(at_ms)
    local now = clock_now()
    if math.abs(now - at) > CLOCK_TOLERANCE_MS then
        return 'skew', now, nil
    end
    local expired = stored ~= nil and math.max(now, at) >= stored
    if must_be == 'before' and expired then
        return 'expired', now, nil
    end
    if must_be == 'after' and not expired then
        return 'early', now, nil
    end
    if new_deadline == '-' then
        return nil, now, nil
    end
    return nil, now, new_deadline
end
