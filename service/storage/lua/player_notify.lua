-- KEYS: the player's event stream. ARGV: kind, data, maxlen, channel, wake-up
-- message, ttl ms. Appends one event to the player's stream (trimmed to about
-- maxlen; gone ttl after its last event) and wakes its readers. Returns the
-- entry's id (the event's id).
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'kind', ARGV[1], 'data', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return id
