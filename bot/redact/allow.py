"""Values that must stay readable, and the test for "this value looks like a credential".

Digests, git SHAs, UUIDs/pod UIDs and container IDs are what people debug with; masking them
would make reports useless. They are only spared where the key is weak or absent; a value under
a strong key (``password``, ``*_TOKEN``) is masked whatever it looks like.
"""

from __future__ import annotations

import math
import re
from collections import Counter

REDACTED_PREFIX = "[REDACTED:"

_BENIGN = re.compile(
    r"""(?x)
    (?:sha(?:256|512|1)|md5):[0-9a-fA-F]{32,128}        # image / content digests
    | (?:containerd|docker|cri-o|crio)://[0-9a-f]{12,64} # container IDs
    | [0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}  # UUIDs, pod UIDs
    | [0-9a-f]{7,12} | [0-9a-f]{40} | [0-9a-f]{64}        # git SHAs (short and full), bare digests
    | [+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[a-zA-Z%]{0,3}   # numbers with units
    | \d{4}-\d\d-\d\d[T ][\d:.]+(?:Z|[+-]\d\d:?\d\d)?   # timestamps
    """
)
_PLACEHOLDER = re.compile(
    r"""(?ix)
    \[REDACTED(?::[a-z0-9-]+)?\]
    | \*+ | x{3,} | \.{3} | -+ | _+ | <[^<>]*> | \{\{[^{}]*\}\} | \$\{[^{}]*\}
    | \$\(?[A-Za-z_][A-Za-z0-9_]*\)? | \$[0-9@*\#?] | \$\{\{[^{}]*\}\} | \$\([^()]*\) | `[^`]*`
    | (?:var|local|module|data|secrets|env|vars|inputs|steps|needs|matrix|github|values|Values)\.[A-Za-z_][\w.\[\]"'-]*
    | <set[ ]to[ ]the[ ]key[ ][^<>]*>.*
    | %\([A-Za-z_]+\)s | %s | \{[A-Za-z_]*\}
    | null | none | nil | true | false | yes | no | on | off | undefined | empty | unset | required | optional
    | redacted | masked | hidden | secret | password | changeme_placeholder | \[?hidden\]? | \[?masked\]?
    | (?:str|string|int|bool|bytes|secretstr|optional\[str\])
    """
)


def is_placeholder(value: str) -> bool:
    """Values that are a reference or a mask, not a credential (keeps redaction idempotent)."""
    return not value or value.startswith(REDACTED_PREFIX) or _PLACEHOLDER.fullmatch(value) is not None


def is_benign(value: str) -> bool:
    return _BENIGN.fullmatch(value) is not None


def entropy(value: str) -> float:
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def looks_secret(value: str) -> bool:
    """High-entropy, token-shaped values: used where the key alone is not conclusive."""
    if len(value) < 8 or is_placeholder(value) or is_benign(value):
        return False
    if " " in value or value.startswith(("/", "./", "http://", "https://", "s3://", "obs://", "gs://")):
        return False
    classes = sum((any(c.islower() for c in value), any(c.isupper() for c in value), any(c.isdigit() for c in value)))
    if classes < 2 and len(value) < 24:
        return False
    return entropy(value) >= 3.0
