-- include: now_ms
-- KEYS[1]: a player's vacation hash (year, used, since, until). ARGV: what
-- to do ('start', 'end' or 'read'), the days asked for (start), the bank of
-- days a year. The one compare-and-set of a player's correspondence vacation
-- (site/vacations.py), on the store's clock: two racing requests on any
-- instances charge the bank once. The bank is a calendar year's (UTC) of
-- the store's clock: days used are charged to the year the vacation starts
-- in, and a new year's first vacation finds the bank whole.
-- Answers, each ending with the days left in this year's bank:
-- start: {'started', since, until, left}; {'active', since, until, left}
-- when one runs (nothing changed); {'short', left} when the bank holds fewer days.
-- end: {'ended', since, until as it was, now, days given back, left}: the
-- whole days not yet begun go back to the bank (a day begun is used);
-- {'none', left} when none runs.
-- read: {'on', since, until, left} while one runs, else {'off', left}.
local DAY_MS = 86400000

-- The UTC calendar year of epoch ms (civil_from_days, H. Hinnant).
local function year_of(ms)
    local z = math.floor(ms / DAY_MS) + 719468
    local era = math.floor(z / 146097)
    local doe = z - era * 146097
    local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
    local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
    local year = yoe + era * 400
    if math.floor((5 * doy + 2) / 153) >= 10 then
        year = year + 1
    end
    return year
end

local held = redis.call('HMGET', KEYS[1], 'year', 'used', 'since', 'until')
local year = year_of(now)
local this_year = tonumber(held[1]) == year
local used = this_year and tonumber(held[2]) or 0
local since, till = tonumber(held[3]) or 0, tonumber(held[4]) or 0
local bank = tonumber(ARGV[3])
local action = ARGV[1]
if action == 'read' then
    if till > now then
        return {'on', since, till, bank - used}
    end
    return {'off', bank - used}
elseif action == 'start' then
    if till > now then
        return {'active', since, till, bank - used}
    end
    local days = tonumber(ARGV[2])
    if days > bank - used then
        return {'short', bank - used}
    end
    used = used + days
    redis.call('HSET', KEYS[1], 'year', year, 'used', used, 'since', now, 'until', now + days * DAY_MS)
    return {'started', now, now + days * DAY_MS, bank - used}
end
if till <= now then
    return {'none', bank - used}
end
local back = math.floor((till - now) / DAY_MS)
if this_year then
    -- (A vacation charged to last year gives nothing back to this year's bank.)
    used = math.max(0, used - back)
    redis.call('HSET', KEYS[1], 'used', used)
end
redis.call('HSET', KEYS[1], 'until', now)
return {'ended', since, till, now, back, bank - used}
