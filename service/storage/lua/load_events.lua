-- KEYS: game, events. ARGV: after (a version), count.
-- Returns nil when there is no game, else {version, oldest, {entry, ...}}:
-- the game's version, the id of the oldest event the stream keeps ('' when
-- it keeps none) and up to `count` entries after version `after`, as XRANGE
-- gives them ({id, {field, value, ...}}).
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
