-- KEYS: game, moves, events. ARGV (arguments.py): ImportArgs. Returns 0
-- when a game already lives under the id (nothing changed), else 1. The
-- HSET comes first: at maxmemory the script is refused whole there (scripts.py).
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
redis.call('HSET', KEYS[1], 'version', version, 'revision', revision, 'state', state, 'view', view)
redis.call('PEXPIRE', KEYS[1], ttl_ms)
-- a history or events left by an expired game of the same id must not leak into this one
redis.call('DEL', KEYS[2], KEYS[3])
local entries = cjson.decode(moves)
-- In slices: unpack() of thousands of values would overflow Lua's stack.
for start = 1, #entries, 1000 do
    redis.call('RPUSH', KEYS[2], unpack(entries, start, math.min(start + 999, #entries)))
end
if #entries > 0 then
    redis.call('PEXPIRE', KEYS[2], ttl_ms)
end
-- A game rebuilt from its kept record gets back its clock log and in-place change (GameStore.restore_game).
for v, entry in ipairs(cjson.decode(clocks)) do
    if entry ~= cjson.null then
        redis.call('HSET', KEYS[1], 'clock:' .. v, entry)
    end
end
if changed ~= '0' then
    redis.call('HSET', KEYS[1], 'changed', changed)
end
return 1
