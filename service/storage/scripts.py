"""The Lua scripts of the Redis store, one atomic round trip each.

Every key a script touches arrives in KEYS, and all of them share the game's
hash tag, so each script runs on the single Redis Cluster node that owns the
game. Times come from the server's clock (TIME), not from the app instances,
whose clocks may disagree.

Shared layout of KEYS: 1 = the game hash (version, revision, state, view;
a game stored before revisions existed has none, read as ''), 2 = the
move list, 3 = the index of recorded idempotency keys (a sorted set: member =
the caller's key, score = the millisecond deadline 24 h after recording),
4.. = idempotency record hashes (fingerprint, answer; no answer = in progress).
"""

# A time helper prepended to the scripts that need the server's clock.
_NOW_MS = """
local function now_ms()
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
"""

# KEYS: game, moves, index. ARGV: state, view, ttl_ms, revision.
# Returns 1, or 0 when a game already lives under the id (nothing changed).
CREATE_GAME = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
-- leftovers of an expired game of the same id must not leak into this one
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'version', 1, 'revision', ARGV[4], 'state', ARGV[1], 'view', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
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

# KEYS: game, moves, index[, record]. ARGV: expected_version,
# expected_revision ('' = any), new_revision, state, view, move, ttl_ms,
# record_ttl_cap_ms[, idempotency key, fingerprint, answer].
# Returns nil when there is no game, and {'moved', version, revision, state}
# when it is not at the expected version and revision (nothing changed in
# either case). Otherwise {'stored', key...}: the idempotency keys whose
# records the old game expiry cut short of their 24 h, which the caller
# renews with RENEW_RECORDS (none while the game TTL is at least 24 h, the
# default).
COMMIT_MOVE = _NOW_MS + """
local found = redis.call('HMGET', KEYS[1], 'version', 'revision')
if not found[1] then
    return nil
end
local version = tonumber(found[1])
local revision = found[2] or ''
if version ~= tonumber(ARGV[1]) or (ARGV[2] ~= '' and revision ~= ARGV[2]) then
    return {'moved', found[1], revision, redis.call('HGET', KEYS[1], 'state')}
end
local ttl = tonumber(ARGV[7])
redis.call('HSET', KEYS[1], 'version', version + 1, 'revision', ARGV[3],
    'state', ARGV[4], 'view', ARGV[5])
redis.call('RPUSH', KEYS[2], ARGV[6])
local stored = {'stored'}
-- Most games never see an Idempotency-Key: no index to keep, and the old
-- expiry (read before it is renewed) and the clock are not needed.
local indexed = KEYS[4] or redis.call('EXISTS', KEYS[3]) == 1
local old_ttl = indexed and redis.call('PTTL', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
if not indexed then
    return stored
end
local now = now_ms()
local cap = tonumber(ARGV[8])
if KEYS[4] then
    redis.call('DEL', KEYS[4])
    redis.call('HSET', KEYS[4], 'fingerprint', ARGV[10], 'answer', ARGV[11])
    redis.call('PEXPIRE', KEYS[4], math.min(cap, ttl))
    redis.call('ZADD', KEYS[3], string.format('%d', now + cap), ARGV[9])
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', string.format('%d', now))
if redis.call('EXISTS', KEYS[3]) == 0 then
    return stored
end
redis.call('PEXPIRE', KEYS[3], ttl)
if old_ttl < 0 then
    return stored
end
local cut_short = redis.call('ZRANGEBYSCORE', KEYS[3],
    '(' .. string.format('%d', now + old_ttl), '+inf')
for _, key in ipairs(cut_short) do
    if key ~= ARGV[9] then
        table.insert(stored, key)
    end
end
return stored
"""

# KEYS: game, index, record... ARGV: the records' idempotency keys.
# Extends each record to its 24 h deadline, but never past the game.
RENEW_RECORDS = _NOW_MS + """
local game_ttl = redis.call('PTTL', KEYS[1])
if game_ttl < 0 then
    return 0
end
local now = now_ms()
for i = 3, #KEYS do
    local deadline = redis.call('ZSCORE', KEYS[2], ARGV[i - 2])
    if deadline and tonumber(deadline) > now then
        redis.call('PEXPIRE', KEYS[i], math.min(tonumber(deadline) - now, game_ttl))
    end
end
return 1
"""

# KEYS: game, index, record. ARGV: idempotency key, fingerprint, answer,
# record_ttl_cap_ms. Keeps an answer that is already recorded (the first
# answer wins) and records nothing for a game that is gone.
RECORD_ANSWER = _NOW_MS + """
local game_ttl = redis.call('PTTL', KEYS[1])
if game_ttl == -2 or redis.call('HEXISTS', KEYS[3], 'answer') == 1 then
    return 0
end
local cap = tonumber(ARGV[4])
local ttl = cap
if game_ttl >= 0 then
    ttl = math.min(cap, game_ttl)
end
redis.call('DEL', KEYS[3])
redis.call('HSET', KEYS[3], 'fingerprint', ARGV[2], 'answer', ARGV[3])
redis.call('PEXPIRE', KEYS[3], ttl)
redis.call('ZADD', KEYS[2], string.format('%d', now_ms() + cap), ARGV[1])
if game_ttl >= 0 then
    redis.call('PEXPIRE', KEYS[2], game_ttl)
end
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
