-- wrk script: GET the paths listed in a file (one per line), in turn. Each wrk thread starts at
-- its own offset and steps by the number of threads, so together the threads go through the whole
-- list before any path comes again.
--   wrk -t2 -c8 -d10s -s cycle.lua http://127.0.0.1:PORT -- paths.txt 2 [THINK_MS]
-- (the second argument is the number of wrk threads, -t). With THINK_MS, each connection waits a
-- random time (exponential, that mean, seeded by the thread's offset) before each request, as a
-- reader does: the load is then set by the pause, not by how fast the server answers.
-- done() prints one line "percentiles p50 p99 p99.9 max requests" (microseconds).
local threads = 0

function setup(thread)
  thread:set("offset", threads)
  threads = threads + 1
end

local paths = {}
local counter = 0
local think = nil

function init(args)
  local file = assert(io.open(args[1], "r"), "cannot open " .. tostring(args[1]))
  for line in file:lines() do
    if #line > 0 then
      paths[#paths + 1] = line
    end
  end
  file:close()
  assert(#paths > 0, "no paths in " .. args[1])
  step = tonumber(args[2]) or 1
  think = tonumber(args[3])
  counter = offset or 0
  math.randomseed(1000 + counter)
end

function delay()
  if think == nil then
    return 0
  end
  return math.floor(-think * math.log(1 - math.random()))
end

function request()
  local path = paths[(counter % #paths) + 1]
  counter = counter + step
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  io.write(string.format("percentiles %d %d %d %d %d\n", latency:percentile(50), latency:percentile(99),
    latency:percentile(99.9), latency.max, summary.requests))
end
