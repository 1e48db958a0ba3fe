"""Values that must stay readable, and the test for "this value looks like a credential".

Digests, git SHAs, UUIDs/pod UIDs and container IDs are what people debug with; masking them
would make reports useless. They are only spared where the key is weak or absent; a value under
a strong key (``password``, ``*_TOKEN``) is masked whatever it looks like.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

from bot.redact.keynames import SETTING_WORDS
from bot.redact.later import later
from bot.redact.masks import OPEN

REDACTED_PREFIX = OPEN

_BENIGN = later(
    r"""(?x)
    (?:sha(?:256|512|1)|md5):[0-9a-fA-F]{32,128}        # image / content digests
    | (?:containerd|docker|cri-o|crio)://[0-9a-f]{12,64} # container IDs
    | [0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}  # UUIDs, pod UIDs
    | [0-9a-f]{7,12} | [0-9a-f]{40} | [0-9a-f]{64}        # git SHAs (short and full), bare digests
    | [+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[a-zA-Z%]{0,3}   # numbers with units
    | \d{4}-\d\d-\d\d[T ][\d:.]+(?:Z|[+-]\d\d:?\d\d)?   # timestamps
    # cache keys (actions/cache "Linux-pip-<sha256 of the lock files>"): words, then digests
    | (?:(?:(?:[A-Z]?[a-z]+|[A-Z]+)[0-9._]*|[0-9][0-9._]*)-)+
      (?:[0-9a-f]{40}|[0-9a-f]{64}|[0-9A-F]{64})(?:-[0-9a-f]{64})*
    """
)
_PLACEHOLDER = later(
    r"""(?ix)
    \[REDACTED(?::[a-z0-9-]+)?\]
    | \*+ | x{3,} | \.{3} | -+ | _+ | <[^<>]*> | \{\{[^{}]*\}\} | \$\{[^{}]*\}?  # a value cut at its "}" too
    | \$\(?[A-Za-z_][A-Za-z0-9_]*\)? | \$[0-9@*\#?] | \$\{\{[^{}]*\}\} | \$\([^()]*\) | `[^`]*`
    | (?:var|local|module|data|secrets|env|vars|inputs|steps|needs|matrix|github|values|Values)\.[A-Za-z_][\w.\[\]"'-]*
    | <set[ ]to[ ]the[ ]key[ ][^<>]*>.*
    | %\([A-Za-z_]+\)s | %[-+\ \#0]*(?:\d+|\*)?(?:\.\d+)?[sdbqiuxXcfgeE](?:\\[nrt])*["']? | \{[A-Za-z_]*\}
    | null | none | nil | true | false | yes | no | on | off | undefined | empty | unset | required | optional
    | redacted | masked | hidden | secret | password | changeme_placeholder | \[?hidden\]? | \[?masked\]?
    | (?:str|string|int|bool|bytes|secretstr|optional\[str\])
    """
)


# Dotted or snake_case names (``actor.rollout_batch_size``, ``global_step_1234``): a config key or a module
# path printed as a value (OmegaConf's ``full_key:``), long enough to look random but made of words.
_IDENTIFIER = later(r"[a-z]+[0-9]{0,3}(?:[._\-](?:[a-z]+[0-9]{0,3}|[0-9]+))+")
# A config key's dotted path with environment-variable names in it (``hydra.job.env_set.WANDB_NOTES``): each
# segment whole words, each word in one letter case.
_WORD = r"(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)[0-9]{0,4}"
_CONFIG_PATH = later(rf"{_WORD}(?:_(?:{_WORD}|[0-9]+))*(?:\.{_WORD}(?:_(?:{_WORD}|[0-9]+))*)+")


def is_placeholder(value: str) -> bool:
    """Values that are a reference or a mask, not a credential (keeps redaction idempotent)."""
    return not value or value.startswith(REDACTED_PREFIX) or _PLACEHOLDER.fullmatch(value) is not None


def key_shaped(value: str) -> bool:
    """An access key ID: 16-40 upper-case letters and digits, both present."""
    return (
        16 <= len(value) <= 40
        and value.isalnum()
        and value.upper() == value
        and any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
    )


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
    if _IDENTIFIER.fullmatch(value) or _CONFIG_PATH.fullmatch(value):
        return False
    classes = sum((any(c.islower() for c in value), any(c.isupper() for c in value), any(c.isdigit() for c in value)))
    if classes < 2 and len(value) < 24:
        return False
    return entropy(value) >= 3.0


_SPLIT = later(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")
_SETTING_VALUE = later(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[a-z][a-z_\-]{0,23}|[A-Z][a-z]{1,11}")
# A file's path: its directories and name are words, not key material ("/run/secrets/db_password").
_FILE_PATH = later(r"(?:~|\.{1,2})?(?:/[A-Za-z0-9._@+\-]+){2,}/?")
_PATH_PART_MAX = 40


def is_setting(key: str, value: str) -> bool:
    """A training or inference setting (``token_level_loss=1``, ``secret_batch: 4``, ``pass_level: sequence``):
    a setting word in the key and a number or a short plain word as the value."""
    return _names_setting(key) and _SETTING_VALUE.fullmatch(value.strip("\"'")) is not None


@lru_cache(maxsize=4096)
def _names_setting(key: str) -> bool:
    """Does the key hold a setting word (keys come again and again: one split per key)?"""
    return any(w.lower() in SETTING_WORDS for w in _SPLIT.split(key) if w)


def is_file_path(value: str) -> bool:
    """``--password=/run/secrets/x``, ``password: /etc/app/db.pass``: where the secret lives, not the secret."""
    value = value.strip("\"'")
    if _FILE_PATH.fullmatch(value) is None:
        return False
    return all(len(part) <= _PATH_PART_MAX and not looks_secret(part) for part in value.split("/"))
