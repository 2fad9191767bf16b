-- `now`, Redis's clock in ms, that leases are counted on: one clock for
-- every worker, whatever machine it runs on. TIME in a script that then
-- writes needs effects replication, which Redis 7 always uses and 6.2 must
-- be asked for.
redis.replicate_commands()
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
