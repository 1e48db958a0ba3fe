"""A finding's sources as links to their sections (`RLARK_BOT_DOC_URLS`: source page -> URL of that page).

A source reads `<page> § <section>`; a page with a URL becomes `<URL#anchor|page § section>`, the anchor made
from the section's heading the way Markdown renderers make one (lower case, punctuation dropped, blanks as
`-`, letters of any script kept), percent-encoded. Pages without a URL stay plain text. Pure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from urllib.parse import quote

SEPARATOR = " § "
_UNSAFE_URL = re.compile(r"[\s<>|`]")


def anchor(section: str) -> str:
    """The heading's anchor: `安装 / 编译阶段 OOM（并行度过高）` -> `安装--编译阶段-oom并行度过高`."""
    kept = []
    for ch in section.strip().lower():
        if ch in " -_":
            kept.append("-" if ch == " " else ch)
        elif unicodedata.category(ch)[0] in "LN":
            kept.append(ch)
    return "".join(kept)


def source_url(source: str, links: Mapping[str, str]) -> str | None:
    """The URL of the section a source names, None when its page has no (usable) URL."""
    page, sep, section = source.partition(SEPARATOR)
    base = links.get(page.strip())
    if not base or _UNSAFE_URL.search(base) or not base.startswith(("http://", "https://")):
        return None
    base = base.split("#", 1)[0]
    return f"{base}#{quote(anchor(section))}" if sep and section.strip() else base


def linked(source: str, text: str, links: Mapping[str, str]) -> str:
    """`text` (the source already cleaned and escaped for mrkdwn) as a Slack link when its page has a URL."""
    url = source_url(source, links)
    if url is None:
        return text
    label = text.replace("|", "¦").replace(">", "&gt;")
    return f"<{url.replace('&', '&amp;')}|{label}>"
