-- KEYS: game, moves, events[, record]. ARGV: expected_version,
-- expected_revision ('*' = any; '' = none stored), new_revision, state, view, move, ttl_ms,
-- event ('' = none), end ('' = the game goes on), events_ttl_ms, channel,
-- wake-up message, events_maxlen[, record_ttl_ms, record].
-- Returns nil when there is no game, and {'moved', version, revision, state}
-- when it is not at the expected version and revision (nothing changed in
-- either case); {'stored'} otherwise. A fixed number of commands whatever the
-- game's history: records keep their own expiry and are not touched here.
--
-- The event goes into the game's own stream in the same script as the move,
-- so no crash can store a move without its event; its entry id is the new
-- version (`<version>-0`), so a reader resumes with "after version N". Should
-- the stream hold a higher id than the new version (Redis lost acknowledged
-- moves and the game reached the version again), it is dropped first: its
-- events describe moves that no longer exist. The PUBLISH only wakes
-- listeners; a lost one costs nothing, as readers re-read the stream.
local found = redis.call('HMGET', KEYS[1], 'version', 'revision')
if not found[1] then
    return nil
end
local version = tonumber(found[1])
local revision = found[2] or ''
if version ~= tonumber(ARGV[1]) or (ARGV[2] ~= '*' and revision ~= ARGV[2]) then
    return {'moved', found[1], revision, redis.call('HGET', KEYS[1], 'state')}
end
redis.call('HSET', KEYS[1], 'version', version + 1, 'revision', ARGV[3],
    'state', ARGV[4], 'view', ARGV[5])
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
if KEYS[4] then
    redis.call('SET', KEYS[4], ARGV[15], 'PX', ARGV[14])
end
return {'stored'}
