-- include: notice, unlist
-- KEYS: the player's webhooks, its webhooks' index, the webhook's delivery log,
-- the player's event stream. ARGV: named in storage/arguments.py
-- (WebhookAttemptArgs), then the webhook's events. Logs one delivery attempt
-- (LPUSH, which grows memory, is the first write) and keeps the webhook's
-- state: failing since the first failure after a success, disabled (taken off
-- the index, the player told with `webhook_disabled`) once it has failed for
-- disable_after_ms. Returns 'gone' (no such webhook: nothing logged), 'ok',
-- 'failing', 'disabled' (now) or 'off' (it was already).
if redis.call('HEXISTS', KEYS[1], hook) == 0 then
    return 'gone'
end
redis.call('LPUSH', KEYS[3], entry)
redis.call('LTRIM', KEYS[3], 0, tonumber(log_most) - 1)
redis.call('PEXPIRE', KEYS[3], log_ttl_ms)
if redis.call('HEXISTS', KEYS[2], 'off:' .. hook) == 1 then
    return 'off'
end
if ok ~= '' then
    redis.call('HDEL', KEYS[2], 'failing:' .. hook)
    return 'ok'
end
local since = redis.call('HGET', KEYS[2], 'failing:' .. hook)
if not since then
    redis.call('HSET', KEYS[2], 'failing:' .. hook, now_ms)
    since = now_ms
end
if tonumber(now_ms) - tonumber(since) < tonumber(disable_after_ms) then
    return 'failing'
end
redis.call('HSET', KEYS[2], 'off:' .. hook, now_ms)
local events = {}
for i = 13, #ARGV do
    events[#events + 1] = ARGV[i]
end
unlist(KEYS[2], hook, events)
append_notice(KEYS[4], 'webhook_disabled', notice, events_maxlen, channel, wakeup, events_ttl_ms)
return 'disabled'
