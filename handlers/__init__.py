"""Slack entry points: parse, authorize and acknowledge, then hand over to the engine."""
