"""Regular expressions compiled the first time they are used.

The redactor's detectors hold nearly two hundred patterns, and most runs need few of them: a detector only looks
at the rare lines the keyword prefilter flags. Python's `re` compiles in Python, so compiling them all when the
modules load is a noticeable part of every command's start; `later` compiles each on its first use instead. The
answers are the same; only when the compiling happens differs.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, Generic, cast

# What a caller may ask of a compiled pattern: once compiled, these are the pattern's own, found without coming
# back through `__getattr__`.
_ATTRIBUTES = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner", "pattern",
               "flags", "groups", "groupindex")


class _Later(Generic[AnyStr]):
    def __init__(self, pattern: AnyStr, flags: int) -> None:
        self._source: tuple[AnyStr, int] = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # protocols probed by copy, pickle and the like: none is a pattern's
            raise AttributeError(name)
        compiled = re.compile(*self._source)
        for attr in _ATTRIBUTES:
            self.__dict__[attr] = getattr(compiled, attr)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"later({self._source[0]!r})"


def later(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, compiled when first used (a syntax error shows then, and in the tests)."""
    return cast("re.Pattern[AnyStr]", _Later(pattern, flags))
