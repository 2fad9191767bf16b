-- include: compare_and_set
-- KEYS: game. ARGV: version, revision, new revision. Returns 1 after giving
-- the game the new revision when it is at that version and revision, else 0:
-- nothing changed. A commit prepared against that version and revision is
-- refused from then on (bot_jobs.py says why that is wanted).
if not compare_and_set(ARGV[1], ARGV[2]) then
    return 0
end
redis.call('HSET', KEYS[1], 'revision', ARGV[3])
return 1
