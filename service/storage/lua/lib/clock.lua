-- A game clock's values at the commit's time (service/games/clock.py says
-- what they are). The texts to store carry markers, \1<letter>\1 (or
-- \u0001<letter>\u0001 inside a JSON string), for the values that depend on
-- the time of the commit, which only the commit knows: Redis's clock, one
-- for every instance. A clock spec is "must_be a_base a_k b_base b_k d_base
-- d_k": each seat's time left and the deadline are base + k * now ('-' as
-- d_base: no deadline); must_be says which side of the stored deadline the
-- commit must fall on ("before" for a move, "after" for a timeout).
local function clock_now()
    -- TIME in a script that then writes needs effects replication, which
    -- Redis 7 always uses and 6.2 must be asked for.
    redis.replicate_commands()
    local time = redis.call('TIME')
    return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- Unix milliseconds as RFC 3339 UTC with milliseconds (the proleptic
-- Gregorian calendar from a day count, as clock.rfc3339_ms gives it).
local function rfc3339(ms)
    local seconds = math.floor(ms / 1000)
    local days = math.floor(seconds / 86400)
    local of_day = seconds - days * 86400
    local z = days + 719468
    local era = math.floor(z / 146097)
    local doe = z - era * 146097
    local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
    local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
    local mp = math.floor((5 * doy + 2) / 153)
    local day = doy - math.floor((153 * mp + 2) / 5) + 1
    local month = mp < 10 and mp + 3 or mp - 9
    local year = yoe + era * 400 + (month <= 2 and 1 or 0)
    return string.format('%04d-%02d-%02dT%02d:%02d:%02d.%03dZ', year, month, day,
        math.floor(of_day / 3600), math.floor(of_day % 3600 / 60), of_day % 60, ms - seconds * 1000)
end

-- (must_be, the markers' values, the deadline or nil) for a clock spec at `now`.
local function clock_values(spec, now)
    local must_be, a, a_k, b, b_k, d, d_k = string.match(spec, '^(%a+) (%S+) (%S+) (%S+) (%S+) (%S+) (%S+)$')
    local values = {
        N = string.format('%d', now),
        A = string.format('%d', tonumber(a) + tonumber(a_k) * now),
        B = string.format('%d', tonumber(b) + tonumber(b_k) * now),
        D = 'null',
        T = 'null',
    }
    local deadline = nil
    if d ~= '-' then
        deadline = tonumber(d) + tonumber(d_k) * now
        values.D = string.format('%d', deadline)
        -- Its text only when a text asks for it (clock_fill): a deadline that
        -- does not depend on the commit's time the core writes out itself.
        values.T = nil
    end
    return must_be, values, deadline
end

local function deadline_text(values)
    if values.T == nil then
        values.T = '"' .. rfc3339(tonumber(values.D)) .. '"'
    end
    return values.T
end

-- A text the core encoded with markers, given as the part before its first
-- marker and the rest: the markers sit near the end (the clock is among a
-- view's last members, the clock log a record's last), so only the rest is
-- searched, and the text is copied once. A raw \1 never appears in JSON
-- otherwise (control characters are escaped inside strings).
local function clock_fill(before, rest, values)
    if values.T == nil and string.find(rest, '\1T\1', 1, true) then
        deadline_text(values)
    end
    return before .. string.gsub(rest, '\1(%u)\1', values)
end

-- A text holding such a text as a JSON string (a recorded answer's body):
-- there the markers stand escaped, and a client's own \u0001 would be \\u0001.
local function clock_fill_escaped(text, values)
    local escaped = {N = values.N, A = values.A, B = values.B, D = values.D, T = string.gsub(deadline_text(values), '"', '\\"')}
    local at = string.find(text, '\\u0001', 1, true)
    if not at then
        return text
    end
    return string.sub(text, 1, at - 1) .. string.gsub(string.sub(text, at), '\\u0001(%u)\\u0001', escaped)
end
