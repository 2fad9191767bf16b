-- include: clock, compare_and_set
-- KEYS: game, moves, events[, record][, shard]. ARGV (arguments.py):
-- CommitArgs, then ClockArgs and DeadlineHint or ''; with a record key, the
-- record's TTL and text come last. With a hint (`lowered`), the last of
-- KEYS is the game's shard of the deadline index (a single Redis only: on a
-- Cluster it lives in another slot, and the store lowers it itself), so
-- KEYS holds a record key when it has one more key than that. (No empty
-- placeholders: every argument costs the caller and Redis to format and read.)
-- Returns the answer of lib/compare_and_set.lua when the game is gone or
-- not at the expected version and revision (nothing changed in either
-- case); {'stored'} otherwise. A fixed number of commands whatever the
-- game's history: records keep their own expiry and are not touched here.
--
-- With a clock check (lib/clock.lua) the texts were written for the caller's
-- reckoning of this clock, which is checked here: a commit too far from it
-- is refused, {'skew', version, revision, state, now}, as is a move at or
-- after the game's stored deadline, {'expired', ...}, and a timeout before
-- it, {'early', ...}; stored, the new deadline is kept beside the texts and
-- the answer is {'stored', now}.
--
-- The event goes into the game's own stream in the same script as the move,
-- so no crash can store a move without its event; its entry id is the new
-- version (`<version>-0`), so a reader resumes with "after version N". Should
-- the stream hold a higher id than the new version (Redis lost acknowledged
-- moves and the game reached the version again), it is dropped first: its
-- events describe moves that no longer exist. The PUBLISH only wakes
-- listeners; a lost one costs nothing, as readers re-read the stream.
local found, moved = compare_and_set(expected_version, expected_revision)
if not found then
    return moved
end
local version = tonumber(found[1])
local revision = found[2]
local now, deadline = nil, nil
local lowering = clocked and lowered ~= ''
local has_record = #KEYS == (lowering and 5 or 4)
if clocked then
    local refused
    refused, now, deadline = clock_check(must_be, at_ms, new_deadline, tonumber(found[3] or ''))
    if refused then
        return {refused, found[1], revision, redis.call('HGET', KEYS[1], 'state'), now}
    end
    if lowering then
        -- Lowered first (ZADD grows memory: at maxmemory the script stops here, nothing changed).
        redis.call('ZADD', KEYS[#KEYS], 'LT', lowered, game_id)
    end
end
if now then
    -- Each version's clock is a field of its own ('clock:<version>'): written
    -- once, never read here, so a clocked commit costs the same at move 40 as
    -- at move 1 (a log in one field was copied whole by every move).
    local field = 'clock:' .. (version + 1)
    if deadline then
        redis.call('HSET', KEYS[1], 'version', version + 1, 'revision', new_revision, 'state', state,
            'view', view, field, clock_entry, 'deadline', deadline)
    else
        -- The game's last commit: no deadline after it.
        redis.call('HSET', KEYS[1], 'version', version + 1, 'revision', new_revision, 'state', state,
            'view', view, field, clock_entry)
        if found[3] then
            redis.call('HDEL', KEYS[1], 'deadline')
        end
    end
else
    redis.call('HSET', KEYS[1], 'version', version + 1, 'revision', new_revision, 'state', state, 'view', view)
end
redis.call('RPUSH', KEYS[2], move)
redis.call('PEXPIRE', KEYS[1], ttl_ms)
redis.call('PEXPIRE', KEYS[2], ttl_ms)
if event ~= '' then
    local entry = {'XADD', KEYS[3], 'MAXLEN', events_maxlen, (version + 1) .. '-0', 'data', event}
    if event_end ~= '' then
        table.insert(entry, 'end')
        table.insert(entry, event_end)
    end
    if type(redis.pcall(unpack(entry))) == 'table' then
        -- an error reply: the stream already holds this id (or is not a stream)
        redis.call('DEL', KEYS[3])
        redis.call(unpack(entry))
    end
    redis.call('PEXPIRE', KEYS[3], events_ttl_ms)
    redis.call('PUBLISH', channel, wakeup)
end
if has_record then
    redis.call('SET', KEYS[4], ARGV[#ARGV], 'PX', ARGV[#ARGV - 1])
end
if now then
    return {'stored', now}
end
return {'stored'}
