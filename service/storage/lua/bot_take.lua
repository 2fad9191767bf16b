-- include: now_ms, ring
-- KEYS: the person ring, the bots ring, taken, wake, the person ring's
-- state, the bots ring's, the person ring's served, the bots ring's. ARGV:
-- the person lists' prefix, the bots lists' prefix, lease ms. Returns the
-- job taken, or false. A ring entry whose list is gone (Redis lost data) is
-- skipped. Moves a job rather than growing anything (served holds only the
-- current round's clients), so it may run past maxmemory.
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
