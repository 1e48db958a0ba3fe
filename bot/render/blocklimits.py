"""Slack's Block Kit limits, and the shares of them each part of a diagnosis may use. Nothing else hard-codes one.

Slack refuses a message past its hard limits (50 blocks, 3,000 characters of section text, ...) and a reply that
fills a screen is not read, so every part of the diagnosis reply has a budget; the budgets add up to less than
`MESSAGE_CHARS`. Lengths are measured in UTF-16 code units (`slack_len`), never less than what Slack counts.
"""

from __future__ import annotations

from typing import Final

# Slack's hard limits.
MAX_BLOCKS: Final = 50
SECTION_TEXT: Final = 3000
HEADER_TEXT: Final = 150
BUTTON_TEXT: Final = 75
ACTION_VALUE: Final = 2000
ACTION_ID: Final = 255
CONTEXT_ELEMENTS: Final = 10
CONTEXT_TEXT: Final = 2000

# What the bot keeps itself to.
MESSAGE_CHARS: Final = 12000  # all text of one message's blocks together
FALLBACK_TEXT: Final = 600  # the notification text
EPHEMERAL_TEXT: Final = 2500  # a one-liner's section (help is the longest)

# Shares of the diagnosis reply (sum < MESSAGE_CHARS, checked by the tests).
SUMMARY_SECTION: Final = 1200  # severity, case id, target, symptom
EVIDENCE_SECTION: Final = SECTION_TEXT  # the first finding's evidence; the rest goes to the file
STEPS_SECTION: Final = 1500
AVOID_SECTION: Final = 1000
CONTEXT_PIECE: Final = 300  # each context element: escalation, sources, stage, redactions
OTHERS_SECTION: Final = 1600  # the other findings, one line each
OTHERS_LINES: Final = 12
LIST_LINE: Final = 300  # one line of a list (another finding, a problem): the rest is in the file
TITLE_IN_TEXT: Final = 200  # a case title inside a line of text (the notification, the root)
INCOMPLETE_SECTION: Final = 1200
FIRST_ERROR_SECTION: Final = 2500  # only shown when no case matched

# Alert threads.
ALERT_SECTION: Final = SECTION_TEXT - 100  # a section of an alert message, cut (with "…") past this
ALERT_OBJECTS: Final = 10  # objects listed in an alert's root; the rest are counted
OPTION_TEXT: Final = 75  # a static select option's text
OPTION_VALUE: Final = 150  # a static select option's value
SELECT_OPTIONS: Final = 100  # options of one static select

# Files uploaded into the thread.
FILE_CHARS: Final = 900_000  # Slack takes far more; a file past this is cut and says so


def slack_len(text: str) -> int:
    """Length as Slack counts it at most: UTF-16 code units (an emoji outside the BMP counts two)."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2
