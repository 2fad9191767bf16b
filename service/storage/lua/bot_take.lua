-- include: now_ms, ring
-- KEYS: the person ring, the bots ring, taken, wake, the person ring's
-- state, the bots ring's, the person ring's served, the bots ring's, due.
-- ARGV: the person lists' prefix, the bots lists' prefix, lease ms, and
-- 'due' to take only a clocked job. Returns the job taken, or false.
-- Clocked jobs first, the one whose flag falls first; then the rings. A
-- ring entry whose list is gone (Redis lost data) is skipped. Moves a job
-- rather than growing anything (served holds only the current round's
-- clients), so it may run past maxmemory.
local first = redis.call('ZPOPMIN', KEYS[9])
if #first > 0 then
    redis.call('ZADD', KEYS[3], now + tonumber(ARGV[3]), first[1])
    return first[1]
end
if ARGV[4] == 'due' then
    return false
end
for ring = 1, 2 do
    while true do
        local popped = redis.call('ZPOPMIN', KEYS[ring])
        if #popped == 0 then
            break
        end
        local client, round = popped[1], math.floor(tonumber(popped[2]))
        local list = ARGV[ring] .. client
        local job = redis.call('LPOP', list)
        if job then
            local take = taken(KEYS[ring + 4], KEYS[ring + 6], client, round)
            if redis.call('LLEN', list) > 0 then
                place(KEYS[ring], round + 1, client, take)
            end
            redis.call('ZADD', KEYS[3], now + tonumber(ARGV[3]), job)
            return job
        end
    end
end
redis.call('DEL', KEYS[4])
return false
