-- include: clock, compare_and_set
-- KEYS: game, moves, events[, record][, shard]. ARGV: expected_version,
-- expected_revision ('*' = any), new_revision, state, view, move, ttl_ms,
-- event ('' = none), end ('' = the game goes on), events_ttl_ms, channel,
-- wake-up message, then either '' (no clock) or the clock check's three
-- (lib/clock.lua), the deadline hint ('' = none), the game id, the new
-- version's clock-log entry and, for a game with no log kept yet, the
-- earlier versions' entries from version 1 on (store.ClockLog); with a
-- record key, the record's TTL and text come last. With a hint, the last of
-- KEYS is the game's shard of the deadline index (a single Redis only: on a
-- Cluster it lives in another slot, and the store lowers it itself), so
-- KEYS holds a record key when it has one more key than that. (No empty
-- placeholders: every argument costs the caller and Redis to format and read.)
-- Returns nil when there is no game, and {'moved', version, revision, state}
-- when it is not at the expected version and revision (nothing changed in
-- either case); {'stored'} otherwise. A fixed number of commands whatever the
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
local found, moved = compare_and_set(ARGV[1], ARGV[2])
if not found then
    return moved
end
local version = tonumber(found[1])
local revision = found[2]
local now, deadline = nil, nil
local lowering = ARGV[14] ~= '' and ARGV[17] ~= ''
local has_record = #KEYS == (lowering and 5 or 4)
-- The clock-log entries: ARGV[19] (this version's) to ARGV[last_entry].
local last_entry = #ARGV - (has_record and 2 or 0)
if ARGV[14] ~= '' then
    local refused
    refused, now, deadline = clock_check(14, tonumber(found[3] or ''))
    if refused then
        return {refused, found[1], revision, redis.call('HGET', KEYS[1], 'state'), now}
    end
    if lowering then
        -- Lowered first (ZADD grows memory: at maxmemory the script stops here, nothing changed).
        redis.call('ZADD', KEYS[#KEYS], 'LT', ARGV[17], ARGV[18])
    end
end
if now then
    -- Each version's clock is a field of its own ('clock:<version>'): written
    -- once, never read here, so a clocked commit costs the same at move 40 as
    -- at move 1 (a log in one field was copied whole by every move).
    local field = 'clock:' .. (version + 1)
    if deadline and last_entry == 19 then
        -- The usual move: one call, no table to build and unpack.
        redis.call('HSET', KEYS[1], 'version', version + 1, 'revision', ARGV[3], 'state', ARGV[4],
            'view', ARGV[5], field, ARGV[19], 'deadline', deadline)
    else
        local write = {'HSET', KEYS[1], 'version', version + 1, 'revision', ARGV[3], 'state', ARGV[4],
            'view', ARGV[5], field, ARGV[19]}
        for earlier = 20, last_entry do
            table.insert(write, 'clock:' .. (earlier - 19))
            table.insert(write, ARGV[earlier])
        end
        if deadline then
            table.insert(write, 'deadline')
            table.insert(write, deadline)
        end
        redis.call(unpack(write))
        if not deadline and found[3] then
            redis.call('HDEL', KEYS[1], 'deadline')
        end
    end
else
    redis.call('HSET', KEYS[1], 'version', version + 1, 'revision', ARGV[3], 'state', ARGV[4], 'view', ARGV[5])
end
redis.call('RPUSH', KEYS[2], ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
redis.call('PEXPIRE', KEYS[2], ARGV[7])
if ARGV[8] ~= '' then
    local entry = {'XADD', KEYS[3], 'MAXLEN', ARGV[13], (version + 1) .. '-0', 'data', ARGV[8]}
    if ARGV[9] ~= '' then
        table.insert(entry, 'end')
        table.insert(entry, ARGV[9])
    end
    if type(redis.pcall(unpack(entry))) == 'table' then
        -- an error reply: the stream already holds this id (or is not a stream)
        redis.call('DEL', KEYS[3])
        redis.call(unpack(entry))
    end
    redis.call('PEXPIRE', KEYS[3], ARGV[10])
    redis.call('PUBLISH', ARGV[11], ARGV[12])
end
if has_record then
    redis.call('SET', KEYS[4], ARGV[#ARGV], 'PX', ARGV[#ARGV - 1])
end
if now then
    return {'stored', now}
end
return {'stored'}
