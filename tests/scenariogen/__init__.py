"""Builders for scenario evidence bundles, shaped as `kubectl cluster-info dump` writes them."""
