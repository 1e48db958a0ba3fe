"""Lua scripts the Redis store runs on the server, so each compare-and-set is atomic.

Every write carries a token of its own call, and each script recognises its own earlier effect: when a
connection drops after the server applied a write but before the reply arrived, the store retries once and the
retry reports the first outcome instead of applying the write twice (no second outbox item, no lost claim).
"""

from __future__ import annotations

CLAIM = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then return 1 end
if v then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
"""KEYS: value key. ARGV: call token, TTL ms. 1 when this call created the key."""

PUT_DOC = """
local cur = redis.call('HMGET', KEYS[1], 'v', 'w')
local v = cur[1]
if v and cur[2] == ARGV[3] then return tonumber(v) end
if ARGV[1] == '' then
  if v then return 0 end
elseif v ~= ARGV[1] then
  return 0
end
local nv = (v and tonumber(v) or 0) + 1
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'v', nv, 'w', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[4])
return nv
"""
"""KEYS: document key, index set. ARGV: expected version ('' = absent), JSON, call token, logical key.
The new version, or 0 when the expected version was not the current one."""

DELETE = """
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
return 1
"""
"""KEYS: value key, document key, index set. ARGV: logical key."""

ACQUIRE = """
local cur = redis.call('GET', KEYS[1])
if cur and ARGV[3] and cur == ARGV[3] then
  redis.call('DEL', KEYS[1])
  cur = false
end
if cur then
  local token, fence = string.match(cur, '^(%x+):(%d+)$')
  if token == ARGV[1] then return tonumber(fence) end
  return 0
end
local fence = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. fence, 'PX', ARGV[2])
return fence
"""
"""KEYS: lock key, fence counter. ARGV: token, TTL ms, and optionally the holder value of a holder known dead
(replaced only if it still holds). The fence, or 0 when someone else holds the lock."""

RENEW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""
"""KEYS: lock key. ARGV: holder value, TTL ms."""

RELEASE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
"""
"""KEYS: lock key. ARGV: holder value."""

PUSH = """
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[2]) then
  redis.call('RPUSH', KEYS[1], ARGV[1])
end
return 1
"""
"""KEYS: queue, marker of this call. ARGV: item, marker TTL ms."""

ACK = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 1 end
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return 0 end
redis.call('LPOP', KEYS[1])
redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
return 1
"""
"""KEYS: queue, marker of this call. ARGV: item, marker TTL ms. 1 when the head was the item and is removed."""
