"""Terminal escapes and control characters out of text meant for people (terminal, tickets, Slack).

Container logs carry colour codes (CSI), window-title and hyperlink sequences (OSC) and stray control bytes
(BEL, NUL, backspace). In a ticket or a Slack message they are noise at best and can rewrite what a reader
sees at worst, so human formats drop them; tabs and line breaks stay.
"""

from __future__ import annotations

import re

# CSI ... final byte; OSC ... BEL or ST; other two-byte escapes; then C0/C1 controls except \t \n.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)|\x1b[@-Z\\-_]?|\x9b[0-?]*[ -/]*[@-~]"
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]")


def plain(text: str) -> str:
    """`text` without escape sequences and control characters (carriage returns become line breaks)."""
    if "\x1b" in text or "\x9b" in text:
        text = _ESCAPES.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROLS.sub("", text)
