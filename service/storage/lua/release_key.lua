-- include: read_record
-- KEYS: record. Drops it only while in progress: a recorded answer stays.
if not answered(read_record(KEYS[1])) then
    redis.call('DEL', KEYS[1])
end
return 0
