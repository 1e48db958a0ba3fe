"""State behind one small interface: dedupe keys, cooldowns, alert records, mutes, locks.

Only bot.store.redis and bot.store.embedded import redis.
"""
