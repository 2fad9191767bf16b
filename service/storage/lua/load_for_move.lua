-- KEYS: game, record. ARGV: fingerprint, marker_ttl_ms.
-- Returns nil (no game, nothing claimed), {version, revision, state} after
-- claiming the key, or {version, revision, state, record} when a record (in
-- progress or answered) already holds the key.
local game = redis.call('HMGET', KEYS[1], 'version', 'revision', 'state')
if not game[1] then
    return nil
end
local record = redis.call('GET', KEYS[2])
if record then
    return {game[1], game[2], game[3], record}
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return {game[1], game[2], game[3]}
