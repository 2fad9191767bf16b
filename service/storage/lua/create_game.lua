-- KEYS: game, moves, events. ARGV: state, view, ttl_ms, revision.
-- Returns 1, or 0 when a game already lives under the id (nothing changed).
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
redis.call('HSET', KEYS[1], 'version', 1, 'revision', ARGV[4], 'state', ARGV[1], 'view', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
-- a history or events left by an expired game of the same id must not leak into this one
redis.call('DEL', KEYS[2], KEYS[3])
return 1
