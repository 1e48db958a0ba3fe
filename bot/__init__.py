"""rlark-bot: read-only diagnosis of RLark/Ray training jobs and Kubernetes CI runner pods."""

__version__ = "0.1.0"
