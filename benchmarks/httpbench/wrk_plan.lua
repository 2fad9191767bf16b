-- wrk script for benchmarks/http.py: replays one plan file and counts answers
-- whose status is not the expected one.
--   wrk ... -s wrk_plan.lua URL -- PLAN_FILE MODE EXPECTED_STATUS THREADS CONNECTIONS
-- MODE "get": the file holds ready-made requests ("<length>\n<bytes>"), sent
--   round-robin.
-- MODE "move": the file holds "<n>" then n script lines "<seat>\t<body>", then
--   one line per game "<id>\t<token0>\t<token1>". Each request is the next
--   move of a game with no request in flight; the 201 body names the game
--   ("id"), which makes it ready for its next move. Ready games queue up,
--   at least as many as the thread has connections, so a game's next move
--   goes out on whichever connection is free next rather than the one that
--   sent the last: the two seats of a game are two clients, with
--   connections of their own.

local threads = {}
local counter = 0

function setup(thread)
   thread:set("index", counter)
   counter = counter + 1
   table.insert(threads, thread)
end

local mode, expected
local requests, next_request = {}, 0
local script, games = {}, {}
local fresh = 0               -- games[1..fresh] are used up
local ready, head, tail = {}, 1, 0
local in_flight = {}
local hold_back = 0           -- ready games kept queued: the thread's connections
unexpected = 0
starved = 0

local function read_get_plan(file)
   while true do
      local line = file:read("*l")
      if line == nil then break end
      table.insert(requests, file:read(tonumber(line)))
   end
end

-- Requests are two ready-made halves: a game's head for the seat (request
-- line, Host, Content-Type, Authorization) and the step's tail
-- (Content-Length, body), so each request costs one concatenation.
local function read_move_plan(file, index, count)
   local host = "Host: " .. wrk.host .. ":" .. wrk.port .. "\r\n"
   local steps = tonumber(file:read("*l"))
   -- Header lines every request sends (http.py --gzip), after their count.
   local common = ""
   for _ = 1, tonumber(file:read("*l")) do
      common = common .. file:read("*l") .. "\r\n"
   end
   for _ = 1, steps do
      local seat, body = string.match(file:read("*l"), "^(%d)\t(.*)$")
      table.insert(script, {seat = tonumber(seat) + 1,
                            tail = "Content-Length: " .. #body .. "\r\n\r\n" .. body})
   end
   local n = 0
   for line in file:lines() do
      -- games are dealt to threads in turn
      if n % count == index then
         local id, t0, t1 = string.match(line, "^([^\t]+)\t([^\t]+)\t([^\t]+)$")
         local head = "POST /games/" .. id .. "/moves HTTP/1.1\r\n" .. host .. common ..
            "Content-Type: application/json\r\nAuthorization: Bearer "
         table.insert(games, {id = id, step = 1,
                              heads = {head .. t0 .. "\r\n", head .. t1 .. "\r\n"}})
      end
      n = n + 1
   end
end

function init(args)
   mode, expected = args[2], tonumber(args[3])
   local file = assert(io.open(args[1], "rb"))
   if mode == "get" then
      read_get_plan(file)
      next_request = index % #requests
   else
      read_move_plan(file, index, tonumber(args[4]))
      hold_back = math.floor(tonumber(args[5]) / tonumber(args[4]))
   end
   file:close()
end

local function move_request(game)
   local step = script[game.step]
   in_flight[game.id] = game
   return game.heads[step.seat] .. step.tail
end

function request()
   if mode == "get" then
      next_request = next_request % #requests + 1
      return requests[next_request]
   end
   local game
   local queued = tail - head + 1
   if queued > hold_back or (queued > 0 and fresh == #games) then
      game = ready[head]
      ready[head] = nil
      head = head + 1
   elseif fresh < #games then
      fresh = fresh + 1
      game = games[fresh]
   else
      -- every game is used up or in flight: stop rather than send a bad move
      starved = starved + 1
      wrk.thread:stop()
      return wrk.format("GET", "/healthz")
   end
   return move_request(game)
end

function response(status, headers, body)
   if status ~= expected then
      unexpected = unexpected + 1
      return
   end
   if mode == "move" then
      -- The game's id from Location (/games/{id}/moves/{n}): the body may be gzipped.
      local game = in_flight[string.match(headers["Location"] or "", "/games/([^/]+)/")]
      if game == nil then return end
      in_flight[game.id] = nil
      game.step = game.step + 1
      if game.step <= #script then
         tail = tail + 1
         ready[tail] = game
      end
   end
end

function done(summary, latency, requests)
   local bad, hungry = 0, 0
   for _, thread in ipairs(threads) do
      bad = bad + thread:get("unexpected")
      hungry = hungry + thread:get("starved")
   end
   local e = summary.errors
   io.write(string.format(
      'WRK-RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,' ..
      '"unexpected":%d,"socket_errors":%d,"starved":%d}\n',
      summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
      bad, e.connect + e.read + e.write + e.timeout, hungry))
end
