-- append_notice: one event on a player's stream (trimmed to about maxlen; gone
-- ttl ms after its last event), its readers woken; the event's id.
local function append_notice(stream, kind, data, maxlen, channel, message, ttl)
    local id = redis.call('XADD', stream, 'MAXLEN', '~', maxlen, '*', 'kind', kind, 'data', data)
    redis.call('PEXPIRE', stream, ttl)
    redis.call('PUBLISH', channel, message)
    return id
end
