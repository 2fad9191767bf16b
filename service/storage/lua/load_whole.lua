-- KEYS: game, moves. Returns nil when there is no game, else
-- {version, revision, state, changed, {move, ...}, {clock entry or false, ...}}:
-- a game whole, as one consistent read, for its kept record (games/outlive.py).
-- The clocks are the fields 'clock:1'..'clock:<version>' (lua/commit_move.lua).
local found = redis.call('HMGET', KEYS[1], 'version', 'revision', 'state', 'changed')
if not found[1] then
    return nil
end
local version = tonumber(found[1])
local fields = {}
for v = 1, version do
    fields[v] = 'clock:' .. v
end
local clocks = redis.call('HMGET', KEYS[1], unpack(fields))
return {found[1], found[2], found[3], found[4] or '', redis.call('LRANGE', KEYS[2], 0, -1), clocks}
