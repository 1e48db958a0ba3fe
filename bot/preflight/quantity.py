"""Kubernetes resource quantities ("500m", "16Gi", "8") as floats, for comparing requests with free capacity."""

from __future__ import annotations

import re
from typing import Any

_QUANTITY = re.compile(r"([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?")
_SUFFIX = {"": 1.0, "n": 1e-9, "u": 1e-6, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18,
           "Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50, "Ei": 2.0**60}


def parse_quantity(value: Any) -> float | None:
    """The quantity's value, or None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if not isinstance(value, str):
        return None
    m = _QUANTITY.fullmatch(value.strip())
    if m is None:
        return None
    return float(m.group(1)) * _SUFFIX[m.group(2) or ""]


def show(amount: float) -> str:
    """A quantity for a message: whole numbers without a fraction."""
    return str(int(amount)) if amount == int(amount) else f"{amount:g}"


def free(allocatable: dict[str, str], used: dict[str, str], *, key: str) -> float:
    """allocatable - used for one resource (absent: 0 allocatable, 0 used)."""
    return (parse_quantity(allocatable.get(key)) or 0.0) - (parse_quantity(used.get(key)) or 0.0)
