"""The Lua scripts of the Redis store, one atomic round trip each.

Every key a script touches arrives in KEYS, and all of them share the game's
hash tag, so each script runs on the single Redis Cluster node that owns the
game.

Shared layout of KEYS: 1 = the game hash (version, revision, state, view;
a game stored before revisions existed has none, read as ''), 2 = the
move list; idempotency record hashes (fingerprint, answer; no answer = in
progress) come after them.

Out of memory. Under `maxmemory` with `noeviction`, Redis checks a script
only at its first write command, and refuses it there only if that command
is one that can grow memory (HSET, RPUSH, INCR...; not DEL or PEXPIRE). Once
a script has written, it runs to its end, past the limit. So every script
that may grow memory makes such a command its first write: under the limit
it runs whole, over it Redis refuses it whole, with nothing changed (an OOM
error, which the store reports as StorageError). The `#!lua` flags that
would declare this up front need Redis 7; this works on 6.2 as well.
"""

# KEYS: game, moves. ARGV: state, view, ttl_ms, revision.
# Returns 1, or 0 when a game already lives under the id (nothing changed).
CREATE_GAME = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
redis.call('HSET', KEYS[1], 'version', 1, 'revision', ARGV[4], 'state', ARGV[1], 'view', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
-- a history left by an expired game of the same id must not leak into this one
redis.call('DEL', KEYS[2])
return 1
"""

# KEYS: game, record. ARGV: fingerprint, marker_ttl_ms.
# Returns nil (no game, nothing claimed), {version, revision, state} after
# claiming the key, or {version, revision, state, fingerprint, answer-or-nil}
# when a record (in progress or answered) already holds the key.
LOAD_FOR_MOVE = """
local game = redis.call('HMGET', KEYS[1], 'version', 'revision', 'state')
if not game[1] then
    return nil
end
local revision = game[2] or ''
local record = redis.call('HMGET', KEYS[2], 'fingerprint', 'answer')
if record[1] then
    return {game[1], revision, game[3], record[1], record[2]}
end
redis.call('HSET', KEYS[2], 'fingerprint', ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return {game[1], revision, game[3]}
"""

# KEYS: game, moves[, record]. ARGV: expected_version, expected_revision
# ('' = any), new_revision, state, view, move, ttl_ms[, record_ttl_ms,
# fingerprint, answer].
# Returns nil when there is no game, and {'moved', version, revision, state}
# when it is not at the expected version and revision (nothing changed in
# either case); {'stored'} otherwise. A fixed number of commands whatever the
# game's history: records keep their own expiry and are not touched here.
COMMIT_MOVE = """
local found = redis.call('HMGET', KEYS[1], 'version', 'revision')
if not found[1] then
    return nil
end
local version = tonumber(found[1])
local revision = found[2] or ''
if version ~= tonumber(ARGV[1]) or (ARGV[2] ~= '' and revision ~= ARGV[2]) then
    return {'moved', found[1], revision, redis.call('HGET', KEYS[1], 'state')}
end
redis.call('HSET', KEYS[1], 'version', version + 1, 'revision', ARGV[3],
    'state', ARGV[4], 'view', ARGV[5])
redis.call('RPUSH', KEYS[2], ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
redis.call('PEXPIRE', KEYS[2], ARGV[7])
if KEYS[3] then
    redis.call('HSET', KEYS[3], 'fingerprint', ARGV[9], 'answer', ARGV[10])
    redis.call('PEXPIRE', KEYS[3], ARGV[8])
end
return {'stored'}
"""

# KEYS: game, record. ARGV: fingerprint, answer, record_ttl_ms. Keeps an
# answer that is already recorded (the first answer wins) and records
# nothing for a game that is gone.
RECORD_ANSWER = """
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[2], 'answer') == 1 then
    return 0
end
redis.call('HSET', KEYS[2], 'fingerprint', ARGV[1], 'answer', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
"""

# KEYS: record. Drops it only while in progress: a recorded answer stays.
RELEASE_KEY = """
if redis.call('HEXISTS', KEYS[1], 'answer') == 0 then
    redis.call('DEL', KEYS[1])
end
return 0
"""

# KEYS: game, moves. ARGV: start, stop (as LRANGE takes them).
# Returns nil when there is no game, else {version, {move, ...}}.
LOAD_MOVES = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then
    return nil
end
return {version, redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])}
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
