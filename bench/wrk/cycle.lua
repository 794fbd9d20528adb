-- wrk script: GET the paths listed in a file (one per line), in turn. Each wrk thread starts at
-- its own offset and steps by the number of threads, so together the threads go through the whole
-- list before any path comes again.
--   wrk -t2 -c8 -d10s -s cycle.lua http://127.0.0.1:PORT -- paths.txt 2
-- (the last argument is the number of wrk threads, -t)
local threads = 0

function setup(thread)
  thread:set("offset", threads)
  threads = threads + 1
end

local paths = {}
local counter = 0

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
  counter = offset or 0
end

function request()
  local path = paths[(counter % #paths) + 1]
  counter = counter + step
  return wrk.format("GET", path)
end
