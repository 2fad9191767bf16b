-- include: clock
-- KEYS: game, moves, events[, record]. ARGV: expected_version,
-- expected_revision ('*' = any; '' = none stored), new_revision, state, view, move, ttl_ms,
-- event ('' = none), end ('' = the game goes on), events_ttl_ms, channel,
-- wake-up message, events_maxlen, clock spec ('' = no clock)[, record_ttl_ms, record].
-- With a clock spec the record's two are always there ('' '' = none), then the
-- deadline hint ('' = none), the game id, and the rest of state, view and event
-- from their first marker on (ARGV 4, 5 and 8 then hold the part before it);
-- with a hint, the last of KEYS is the game's shard of the deadline index (a
-- single Redis only: on a Cluster it lives in another slot, and the store
-- lowers it itself).
-- Returns nil when there is no game, and {'moved', version, revision, state}
-- when it is not at the expected version and revision (nothing changed in
-- either case); {'stored'} otherwise. A fixed number of commands whatever the
-- game's history: records keep their own expiry and are not touched here.
--
-- With a clock spec (lib/clock.lua) the commit's time is read here, the one
-- clock: a move that comes at or after the game's stored deadline is
-- refused, {'expired', version, revision, state}, as is a timeout before it,
-- {'early', ...}; stored, the texts' markers are filled in and the new
-- deadline kept, and the answer is {'stored', now}.
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
local state, view, event, record = ARGV[4], ARGV[5], ARGV[8], ARGV[16]
local now, deadline = nil, nil
if ARGV[14] ~= '' then
    now = clock_now()
    local must_be, values
    must_be, values, deadline = clock_values(ARGV[14], now)
    local stored = tonumber(redis.call('HGET', KEYS[1], 'deadline') or '')
    local expired = stored ~= nil and now >= stored
    if must_be == 'before' and expired then
        return {'expired', found[1], revision, redis.call('HGET', KEYS[1], 'state')}
    end
    if must_be == 'after' and not expired then
        return {'early', found[1], revision, redis.call('HGET', KEYS[1], 'state')}
    end
    if ARGV[17] ~= '' then
        -- Lowered first (ZADD grows memory: at maxmemory the script stops here, nothing changed).
        redis.call('ZADD', KEYS[#KEYS], 'LT', ARGV[17], ARGV[18])
    end
    state = clock_fill(state, ARGV[19], values)
    view = clock_fill(view, ARGV[20], values)
    event = clock_fill(event, ARGV[21], values)
    if record ~= '' then
        record = clock_fill_escaped(record, values)
    end
end
redis.call('HSET', KEYS[1], 'version', version + 1, 'revision', ARGV[3], 'state', state, 'view', view)
if deadline then
    redis.call('HSET', KEYS[1], 'deadline', string.format('%d', deadline))
elseif now then
    redis.call('HDEL', KEYS[1], 'deadline')
end
redis.call('RPUSH', KEYS[2], ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
redis.call('PEXPIRE', KEYS[2], ARGV[7])
if event ~= '' then
    local entry = {'XADD', KEYS[3], 'MAXLEN', ARGV[13], (version + 1) .. '-0', 'data', event}
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
if record and record ~= '' then
    redis.call('SET', KEYS[4], record, 'PX', ARGV[15])
end
if now then
    return {'stored', now}
end
return {'stored'}
