-- KEYS: game, moves. ARGV: start, stop (as LRANGE takes them).
-- Returns nil when there is no game, else {version, {move, ...}}.
local version = redis.call('HGET', KEYS[1], 'version')
if not version then
    return nil
end
return {version, redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])}
