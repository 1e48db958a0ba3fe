"""Live collection against an API stand-in (no real cluster needed)."""
