"""Observability of the running bot: Prometheus metrics (`metrics`) and redacted JSON logs (`logs`).

Pure Python on prometheus_client and the standard library; nothing here knows about Slack, Redis or the
scheduler, so every layer can report into it without pulling an SDK along.
"""

from bot.obs.logs import JsonFormatter, RedactingHandler, configure_logging, new_id
from bot.obs.metrics import Metrics

__all__ = ["JsonFormatter", "Metrics", "RedactingHandler", "configure_logging", "new_id"]
