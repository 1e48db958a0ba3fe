"""The long-running process: the composition root of `serve` and its start, readiness and graceful stop."""
