"""The Lua scripts of the Redis store, one atomic round trip each.

Every key a script touches arrives in KEYS, and all of them share the game's
hash tag, so each script runs on the single Redis Cluster node that owns the
game.

Shared layout of KEYS: 1 = the game hash (version, revision, state, view;
a game stored before revisions existed has none, read as ''), 2 = the
move list, 3 = the event stream (a game's moves as events, keys.py);
idempotency records come after them. LOAD_EVENTS, which reads only the
stream, takes the game and the stream.

An idempotency record is one string: the request's fingerprint while the
first request runs, then the fingerprint, a newline and the answer. A
string, not a hash: a hash with a value over 64 bytes leaves Redis's compact
encoding and costs about 230 bytes more per record. Records written as
hashes (fingerprint, answer) by earlier versions are still read; they are
gone 24 h after the upgrade.

Out of memory. Under `maxmemory` with `noeviction`, Redis checks a script
only at its first write command, and refuses it there only if that command
is one that can grow memory (SET, HSET, RPUSH, INCR...; not DEL or PEXPIRE). Once
a script has written, it runs to its end, past the limit. So every script
that may grow memory makes such a command its first write: under the limit
it runs whole, over it Redis refuses it whole, with nothing changed (an OOM
error, which the store reports as StorageError). The `#!lua` flags that
would declare this up front need Redis 7; this works on 6.2 as well.
"""

# The record under `key` in its string form, or false when there is none.
_READ_RECORD = """
local function read_record(key)
    local value = redis.pcall('GET', key)
    if type(value) ~= 'table' then
        return value
    end
    -- WRONGTYPE: a hash record of an earlier version
    local old = redis.call('HMGET', key, 'fingerprint', 'answer')
    if old[1] and old[2] then
        return old[1] .. '\\n' .. old[2]
    end
    return old[1]
end

local function answered(record)
    return record and string.find(record, '\\n', 1, true) ~= nil
end
"""

# KEYS: game, moves, events. ARGV: state, view, ttl_ms, revision.
# Returns 1, or 0 when a game already lives under the id (nothing changed).
CREATE_GAME = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
redis.call('HSET', KEYS[1], 'version', 1, 'revision', ARGV[4], 'state', ARGV[1], 'view', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
-- a history or events left by an expired game of the same id must not leak into this one
redis.call('DEL', KEYS[2], KEYS[3])
return 1
"""

# KEYS: game, record. ARGV: fingerprint, marker_ttl_ms.
# Returns nil (no game, nothing claimed), {version, revision, state} after
# claiming the key, or {version, revision, state, record} when a record (in
# progress or answered) already holds the key.
LOAD_FOR_MOVE = (
    _READ_RECORD
    + """
local game = redis.call('HMGET', KEYS[1], 'version', 'revision', 'state')
if not game[1] then
    return nil
end
local revision = game[2] or ''
local record = read_record(KEYS[2])
if record then
    return {game[1], revision, game[3], record}
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return {game[1], revision, game[3]}
"""
)

# KEYS: game, moves, events[, record]. ARGV: expected_version,
# expected_revision ('*' = any; '' = none stored), new_revision, state, view, move, ttl_ms,
# event ('' = none), end ('' = the game goes on), events_ttl_ms, channel,
# wake-up message, events_maxlen[, record_ttl_ms, record].
# Returns nil when there is no game, and {'moved', version, revision, state}
# when it is not at the expected version and revision (nothing changed in
# either case); {'stored'} otherwise. A fixed number of commands whatever the
# game's history: records keep their own expiry and are not touched here.
#
# The event goes into the game's own stream in the same script as the move,
# so no crash can store a move without its event; its entry id is the new
# version (`<version>-0`), so a reader resumes with "after version N". Should
# the stream hold a higher id than the new version (Redis lost acknowledged
# moves and the game reached the version again), it is dropped first: its
# events describe moves that no longer exist. The PUBLISH only wakes
# listeners; a lost one costs nothing, as readers re-read the stream.
COMMIT_MOVE = """
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
"""

# KEYS: game. ARGV: version, revision, new revision. Returns 1 after giving
# the game the new revision when it is at that version and revision (''
# matching a game stored before revisions), else 0: nothing changed. A
# commit prepared against that version and revision is refused from then on
# (bot_jobs.py says why that is wanted).
RENEW_REVISION = """
local found = redis.call('HMGET', KEYS[1], 'version', 'revision')
if not found[1] or tonumber(found[1]) ~= tonumber(ARGV[1]) or (found[2] or '') ~= ARGV[2] then
    return 0
end
redis.call('HSET', KEYS[1], 'revision', ARGV[3])
return 1
"""

# KEYS: game, record. ARGV: record, record_ttl_ms. Keeps an answer that is
# already recorded (the first answer wins) and records nothing for a game
# that is gone.
RECORD_ANSWER = (
    _READ_RECORD
    + """
if redis.call('EXISTS', KEYS[1]) == 0 or answered(read_record(KEYS[2])) then
    return 0
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 1
"""
)

# KEYS: record. Drops it only while in progress: a recorded answer stays.
RELEASE_KEY = (
    _READ_RECORD
    + """
if not answered(read_record(KEYS[1])) then
    redis.call('DEL', KEYS[1])
end
return 0
"""
)

# KEYS: game, moves. ARGV: start, stop (as LRANGE takes them).
# Returns nil when there is no game, else {version, {move, ...}}.
LOAD_MOVES = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then
    return nil
end
return {version, redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])}
"""

# KEYS: game, events. ARGV: after (a version), count.
# Returns nil when there is no game, else {version, oldest, {entry, ...}}:
# the game's version, the id of the oldest event the stream keeps ('' when
# it keeps none) and up to `count` entries after version `after`, as XRANGE
# gives them ({id, {field, value, ...}}).
LOAD_EVENTS = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then
    return nil
end
local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
local oldest = ''
if first[1] then
    oldest = first[1][1]
end
return {version, oldest, redis.call('XRANGE', KEYS[2], '(' .. ARGV[1] .. '-0', '+', 'COUNT', ARGV[2])}
"""

# KEYS: counter. ARGV: window length in ms. Returns {count, ms left in window}.
# The PTTL repair covers a counter that lost its expiry (e.g. restored from a
# snapshot without it), which would otherwise block a client for good.
COUNT_REQUEST = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    left = tonumber(ARGV[1])
end
return {count, left}
"""
