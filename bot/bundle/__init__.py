"""Evidence bundles: `kubectl cluster-info dump` directories plus custom resources (CONTRACT §2)."""

from bot.bundle.errors import BundleError
from bot.bundle.reader import read_bundle

__all__ = ["BundleError", "read_bundle"]
