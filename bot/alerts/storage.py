"""The store keys the alert side uses (logical keys; the store adds its own versioned prefix, `bot.store.keys`)."""

from __future__ import annotations

RECORD = "alerts:record:"  # + alert key: {"record": Record doc, "queued": [Action doc, ...]}
MUTE = "alerts:mute:"  # + alert key: {"until": POSIX seconds, "by": user}, TTL = the mute's duration
OUTBOX = "alerts:outbox"  # FIFO of {"id", "action"} deliveries, oldest first
SENT = "alerts:sent:"  # + delivery id + ":" + channel: the message ts, written right after Slack answered
DONE = "alerts:done:"  # + delivery id: the whole delivery is done (every channel)
ATTEMPTS = "alerts:attempts:"  # + delivery id: drains that found Slack refusing it
DEAD = "alerts:dead"  # deliveries given up after MAX_ATTEMPTS, kept for an operator to read
MAX_ATTEMPTS = 30  # about half an hour of ticks: past that a refusal is not an outage but a bad message
DELIVER_LOCK = "alerts:deliver"
MARKER_TTL_SECONDS = 14 * 24 * 3600
RESOLVED_KEPT_SECONDS = 7 * 24 * 3600  # a resolved alert's record (and thread) is re-used this long, then dropped
