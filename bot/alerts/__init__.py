"""Alert threads for the scheduled checks (CONTRACT §6).

`grouping` folds a tick's alerts into observations (one per cause), `machine` is the pure lifecycle,
`routing` picks channels, `notifier` applies the lifecycle with the store (compare-and-set, an ordered outbox)
and delivers through `ports.AlertSink`, which the Slack side implements; `mutes` serves `/rlark mute`,
`/rlark unmute` and `/rlark alerts`.
"""
