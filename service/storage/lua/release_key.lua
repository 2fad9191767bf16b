-- include: answered
-- KEYS: record. Drops it only while in progress: a recorded answer stays.
if not answered(redis.call('GET', KEYS[1])) then
    redis.call('DEL', KEYS[1])
end
return 0
