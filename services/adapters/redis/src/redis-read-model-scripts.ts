/**
 * Lua for the Redis read-model store. Every script gets its keys through ARGV (numkeys 0) and
 * builds key names itself: the data keys depend on the active pointer read inside the script.
 * That breaks Redis Cluster's rule that scripts declare their keys; acceptable because we run
 * a single Redis, never a cluster.
 *
 * ARGV[1] is the projection's key base (`<prefix>:<projection>`), ARGV[2] a pinned version or
 * '' to follow the active pointer. Errors meant for callers start with QRVALUE or QRVERSION.
 */

const RESOLVE_VERSION = `
local base = ARGV[1]
local version = ARGV[2]
if version == '' then
  version = redis.call('GET', base .. ':active') or '1'
end
local root = base .. ':v' .. version .. ':'
`;

/** ARGV[3..]: suffixes under the version ('cp' or 'd:<key>'). Returns their strings. */
export const READ_STRINGS = `${RESOLVE_VERSION}
local values = {}
for i = 3, #ARGV do
  local value = redis.pcall('GET', root .. ARGV[i])
  if type(value) == 'table' and value.err then
    return redis.error_reply('QRVALUE key ' .. string.sub(ARGV[i], 3) .. ' does not hold a string')
  end
  values[i - 2] = value
end
return values
`;

/** ARGV[3..]: 'd:<key>' suffixes. Returns one flat field/value array per key. */
export const READ_HASHES = `${RESOLVE_VERSION}
local hashes = {}
for i = 3, #ARGV do
  local fields = redis.pcall('HGETALL', root .. ARGV[i])
  if fields.err then
    return redis.error_reply('QRVALUE key ' .. string.sub(ARGV[i], 3) .. ' does not hold a hash')
  end
  hashes[i - 2] = fields
end
return hashes
`;

/** ARGV[3]: a 'd:<key>' suffix. */
export const READ_MEMBERS = `${RESOLVE_VERSION}
local members = redis.pcall('SMEMBERS', root .. ARGV[3])
if members.err then
  return redis.error_reply('QRVALUE key ' .. string.sub(ARGV[3], 3) .. ' does not hold a set')
end
return members
`;

/**
 * ARGV[3]: the checkpoint expected ('' = none), ARGV[4]: the new one, ARGV[5]: the ops as JSON.
 * Returns 0 when the stored checkpoint differs, else applies the ops and returns 1.
 *
 * Redis does not roll back a script that fails halfway, so every op is checked against the
 * stored values (and the ones earlier ops in the batch would leave) before the first write.
 * Counters are kept within JS's safe integers, so checking them with Lua's doubles is exact.
 */
export const COMMIT = `
local base = ARGV[1]
local version = ARGV[2]
if version == '' then
  version = redis.call('GET', base .. ':active') or '1'
else
  local wanted = tonumber(version)
  local created = tonumber(redis.call('GET', base .. ':versions') or '1')
  if not wanted or wanted ~= math.floor(wanted) or wanted < 1 or wanted > created then
    return redis.error_reply('QRVERSION version ' .. version .. ' of ' .. base .. ' was never created')
  end
end
local root = base .. ':v' .. version .. ':'

if (redis.call('GET', root .. 'cp') or '') ~= ARGV[3] then
  return 0
end

local MAX = 9007199254740991
local ops = cjson.decode(ARGV[5])

-- The string fields each op needs: a missing one would fail only halfway through the writes.
local SHAPES = {
  set = { 'key', 'value' },
  del = { 'key' },
  hset = { 'key', 'field', 'value' },
  hincrby = { 'key', 'field' },
  sadd = { 'key', 'member' },
  rename = { 'key', 'to' },
}

local function is_integer(text)
  return (text == '0' or string.match(text, '^%-?[1-9]%d*$') ~= nil) and math.abs(tonumber(text)) <= MAX
end

-- Returns why the batch cannot apply, or nil. Tracks per key the type (and hash fields) that
-- the ops before the current one would leave.
local function check()
  local pending = {}
  for _, op in ipairs(ops) do
    local shape = SHAPES[op.op]
    if not shape then
      return 'unknown op ' .. tostring(op.op)
    end
    for _, name in ipairs(shape) do
      if type(op[name]) ~= 'string' then
        return op.op .. ' needs a string ' .. name
      end
    end
    local key = root .. 'd:' .. op.key
    if op.op == 'rename' then
      -- The moved value's unknown fields are still read from where it is stored now.
      local state = pending[key] or { kind = redis.call('TYPE', key).ok, fields = {}, known = false, from = key }
      local moved = { kind = state.kind, fields = {}, known = state.known, from = state.from or key }
      for field, value in pairs(state.fields) do
        moved.fields[field] = value
      end
      pending[key] = { kind = 'none', fields = {}, known = true }
      pending[root .. 'd:' .. op.to] = moved
    elseif op.op == 'set' then
      pending[key] = { kind = 'string', fields = {}, known = true }
    elseif op.op == 'del' then
      pending[key] = { kind = 'none', fields = {}, known = true }
    else
      local kind = (op.op == 'sadd') and 'set' or 'hash'
      local state = pending[key]
      if not state then
        state = { kind = redis.call('TYPE', key).ok, fields = {}, known = false }
        pending[key] = state
      end
      if state.kind ~= 'none' and state.kind ~= kind then
        return op.op .. ' on key ' .. op.key .. ', which holds a ' .. state.kind
      end
      state.kind = kind
      if op.op == 'hset' then
        state.fields[op.field] = op.value
      elseif op.op == 'hincrby' then
        if type(op.by) ~= 'number' or op.by ~= math.floor(op.by) or math.abs(op.by) > MAX then
          return 'hincrby on key ' .. op.key .. ': by must be a safe integer'
        end
        local current = state.fields[op.field]
        if current == nil and not state.known then
          current = redis.call('HGET', state.from or key, op.field)
        end
        current = current or '0'
        if not is_integer(current) or math.abs(tonumber(current) + op.by) > MAX then
          return 'hincrby on ' .. op.key .. ' ' .. op.field .. ': ' .. current .. ' + by is not a safe integer'
        end
        state.fields[op.field] = string.format('%d', tonumber(current) + op.by)
      end
    end
  end
  return nil
end

local problem = check()
if problem then
  return redis.error_reply('QRVALUE ' .. problem)
end

for _, op in ipairs(ops) do
  local key = root .. 'd:' .. op.key
  if op.op == 'set' then
    redis.call('SET', key, op.value)
  elseif op.op == 'del' then
    redis.call('DEL', key)
  elseif op.op == 'hset' then
    redis.call('HSET', key, op.field, op.value)
  elseif op.op == 'hincrby' then
    -- cjson hands over a double; tostring would turn 1e15 into '1e+15', which HINCRBY rejects.
    redis.call('HINCRBY', key, op.field, string.format('%d', op.by))
  elseif op.op == 'sadd' then
    redis.call('SADD', key, op.member)
  elseif op.op == 'rename' then
    local to = root .. 'd:' .. op.to
    if to ~= key then
      if redis.call('EXISTS', key) == 1 then
        redis.call('RENAME', key, to)
      else
        redis.call('DEL', to)
      end
    end
  end
end
redis.call('SET', root .. 'cp', ARGV[4])
return 1
`;

/** Version 1 exists from the start, so the counter begins there. */
export const CREATE_VERSION = `
local key = ARGV[1] .. ':versions'
redis.call('SETNX', key, 1)
return redis.call('INCR', key)
`;

/** ARGV[2]: the version to point readers at; it must have been created. */
export const ACTIVATE = `
local wanted = tonumber(ARGV[2])
local created = tonumber(redis.call('GET', ARGV[1] .. ':versions') or '1')
if not wanted or wanted ~= math.floor(wanted) or wanted < 1 or wanted > created then
  return redis.error_reply('QRVERSION version ' .. ARGV[2] .. ' of ' .. ARGV[1] .. ' was never created')
end
redis.call('SET', ARGV[1] .. ':active', ARGV[2])
return 1
`;
