-- KEYS: game, events. ARGV: after (a version), count, after's offer (0: none; lua/amend_game.lua).
-- Returns nil when there is no game, else {version, oldest, {entry, ...}}:
-- the game's version, the id of the oldest event the stream keeps ('' when
-- it keeps none) and up to `count` entries after version `after`, as XRANGE
-- gives them ({id, {field, value, ...}}); an offer's entry comes between two versions'.
local version = redis.call('HGET', KEYS[1], 'version')
if not version then
    return nil
end
local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
local oldest = ''
if first[1] then
    oldest = first[1][1]
end
return {version, oldest, redis.call('XRANGE', KEYS[2], '(' .. ARGV[1] .. '-' .. ARGV[3], '+', 'COUNT', ARGV[2])}
