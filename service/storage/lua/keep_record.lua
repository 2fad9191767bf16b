-- KEYS: game, kept. ARGV: revision, record. Keeps `record` (no TTL) only
-- while the game is still at the revision it was written from, so two
-- processes keeping one game's record in turn never leave the older one
-- (games/outlive.py). Returns 1 when kept, else 0.
if redis.call('HGET', KEYS[1], 'revision') ~= ARGV[1] then
    return 0
end
redis.call('SET', KEYS[2], ARGV[2])
return 1
