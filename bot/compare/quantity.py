"""Kubernetes resource quantities compared by value, so `1Gi` and `1024Mi` are not a change."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_QUANTITY = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?")
_FACTORS = {"": Decimal(1), "n": Decimal("1e-9"), "u": Decimal("1e-6"), "m": Decimal("1e-3"), "k": Decimal(10) ** 3,
            "M": Decimal(10) ** 6, "G": Decimal(10) ** 9, "T": Decimal(10) ** 12, "P": Decimal(10) ** 15,
            "E": Decimal(10) ** 18, "Ki": Decimal(2) ** 10, "Mi": Decimal(2) ** 20, "Gi": Decimal(2) ** 30,
            "Ti": Decimal(2) ** 40, "Pi": Decimal(2) ** 50, "Ei": Decimal(2) ** 60}


def canonical(text: str) -> str:
    """The quantity's value as a plain decimal number; text that is no quantity is kept as it is."""
    m = _QUANTITY.fullmatch(text.strip())
    if m is None:
        return text
    try:
        value = Decimal(m.group(1)) * _FACTORS[m.group(2) or ""]
    except InvalidOperation:
        return text
    return f"{value.normalize():f}"


def same_quantity(a: str | None, b: str | None) -> bool:
    return a == b or (a is not None and b is not None and canonical(a) == canonical(b))
