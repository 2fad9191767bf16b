-- include: record_version
-- KEYS: one tournament's hash (version, text, status, last_event), its event
-- stream. ARGV: the version the caller judged its change on (0: the
-- tournament must not exist yet), the new text, the new status, the epoch ms
-- until which both keys are kept (0: for good), the stream's maxlen, the
-- wake-up channel and message, then the events to append, kind and data in
-- turn. The one compare-and-set of a tournament (storage/tournaments.py):
-- the record and its events change together or not at all. Returns {'ok',
-- new version, last event id or ''}; {'moved', version, text} when it is no
-- longer at that version; {'absent'} when a change names none.
local version, _, answer = record_version(ARGV[1])
if answer then
    return answer
end
-- HSET first: the write that grows memory (scripts.py, "Out of memory").
redis.call('HSET', KEYS[1], 'version', version + 1, 'text', ARGV[2], 'status', ARGV[3])
local last = ''
for i = 8, #ARGV, 2 do
    last = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'kind', ARGV[i], 'data', ARGV[i + 1])
end
if last ~= '' then
    redis.call('HSET', KEYS[1], 'last_event', last)
    redis.call('PUBLISH', ARGV[6], ARGV[7])
end
if tonumber(ARGV[4]) > 0 then
    redis.call('PEXPIREAT', KEYS[1], ARGV[4])
    redis.call('PEXPIREAT', KEYS[2], ARGV[4])
end
return {'ok', version + 1, last}
