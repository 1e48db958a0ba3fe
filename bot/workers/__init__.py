"""The worker processes that run collection, the engine, rendering and redaction for Slack and the scheduler."""
