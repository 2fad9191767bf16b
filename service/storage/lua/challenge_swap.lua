-- include: now_ms, record_version
-- KEYS[1]: one challenge's hash (version, text, status). ARGV: the version
-- the caller judged its change on (0: the challenge must not exist yet), the
-- new text, the new status, the store's time the change must come before
-- ('-': none; a pending challenge's expiry), and the epoch ms until which the
-- hash is kept. The one compare-and-set of a challenge (storage/challenges.py):
-- returns {'ok', new version}; {'moved', version, text} when it is no longer
-- at that version; {'late', version, text} when the store's clock is past
-- the deadline (nothing written); {'absent'} when a change names none.
local version, text, answer = record_version(ARGV[1])
if answer then
    return answer
end
if ARGV[4] ~= '-' and now >= tonumber(ARGV[4]) then
    if not text then
        return {'absent'}
    end
    return {'late', version, text}
end
redis.call('HSET', KEYS[1], 'version', version + 1, 'text', ARGV[2], 'status', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[5])
return {'ok', version + 1}
