-- KEYS: the player's record, the set of rated games applied to it. ARGV:
-- game id, rating after, RD after, volatility after, the change of rating.
-- Applies one finished rated game's settlement to the player once: a game id
-- already in the applied set changes nothing (returns 0), so a retried or
-- repeated application (the repair, a racing instance) counts it once. The
-- rating moves by the game's change (a concurrent rated game of the same
-- player then moves it too, rather than one overwriting the other); RD and
-- volatility are the settlement's. Returns 1 when applied, -1 for no player.
local text = redis.call('GET', KEYS[1])
if not text then
    return -1
end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then
    return 0
end
local player = cjson.decode(text)
player['rating']['rating'] = player['rating']['rating'] + tonumber(ARGV[5])
player['rating']['rd'] = tonumber(ARGV[3])
player['rating']['volatility'] = tonumber(ARGV[4])
player['rated_games'] = player['rated_games'] + 1
redis.call('SET', KEYS[1], cjson.encode(player))
return 1
