"""The messages of a watch (`/rlark watch TARGET`): the root that names the target and shows its current stage
(edited in place), one reply per change seen in a tick, and the ephemeral answers of `watch` and `unwatch`.

Each carries Slack message metadata `rlark_watch` `{"target", "stage", "case", "state"}` (CONTRACT §11).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, Literal

from bot.redact import Redactor
from bot.render.slack_labels import label
from bot.render.slack_message import SlackMessage, context, section
from bot.render.slack_text import clean_line, inline

WATCH_EVENT: Final = "rlark_watch"
_USER: Final = re.compile(r"[UW][A-Z0-9]{2,20}")
State = Literal["watching", "ended", "stopped"]



def _t(key: str, lang: str, /, **fields: object) -> str:
    return label(f"watch.{key}", lang, **fields)


@dataclass(frozen=True)
class WatchView:
    """What a watch message shows: the target's label and §3 object, its stage and primary case, its state."""

    label: str
    target: dict[str, str]
    stage: str
    case: str
    state: State


def _metadata(view: WatchView) -> dict[str, Any]:
    return {"event_type": WATCH_EVENT, "event_payload": {"target": dict(view.target), "stage": view.stage,
                                                         "case": view.case, "state": view.state}}


def _case_part(view: WatchView, lang: str, redactor: Redactor) -> str:
    return "" if view.case == "none" else _t("case", lang, case=inline(clean_line(view.case, redactor)))


def watch_root(view: WatchView, *, user: str, hours: float, command: str, redactor: Redactor,
               lang: str) -> SlackMessage:
    """The root: the target, its current stage (and case), who started it and how it stops."""
    target = inline(clean_line(view.label, redactor))
    key = "root" if view.state == "watching" else "root.ended"
    line = _t(key, lang, target=target, stage=inline(clean_line(view.stage, redactor)),
              case=_case_part(view, lang, redactor))
    note = _t("by", lang, user=_user(user), hours=f"{hours:g}",
              stop=inline(clean_line(f"{command} unwatch {view.label}", redactor)))
    text = f"{view.label}: {view.stage}"
    return SlackMessage(text=clean_line(text, redactor), blocks=[section(line), context([note])],
                        metadata=_metadata(view))


def _user(user: str) -> str:
    """A Slack user id as a mention; anything else is not one (and is dropped)."""
    return user if _USER.fullmatch(user) else "USLACKBOT"


def watch_change(view: WatchView, *, lines: list[str], redactor: Redactor) -> SlackMessage:
    """One reply for every change seen in one tick (`lines` from `change_lines`, already escaped)."""
    return SlackMessage(text=clean_line(" · ".join(lines), redactor), blocks=[section("\n".join(lines))],
                        metadata=_metadata(view))


def change_lines(*, old: WatchView, new: WatchView, phase: str, gone: bool, lang: str, redactor: Redactor,
                 user: str = "", stopped_after_hours: float | None = None) -> list[str]:
    """What changed between `old` and `new`, one escaped mrkdwn line each, in the order stage, case, end."""

    def q(text: str) -> str:
        return inline(clean_line(text, redactor))

    out: list[str] = []
    if new.stage != old.stage:
        out.append(_t("stage", lang, old=q(old.stage), new=q(new.stage)))
    if new.case != old.case:
        if old.case != "none":
            out.append(_t("case.gone", lang, case=q(old.case)))
        if new.case != "none":
            out.append(_t("case.new", lang, case=q(new.case)))
    if new.state == "ended":
        if gone:
            out.append(_t("ended.gone", lang, target=q(new.label)))
        elif phase in ("Failed", "Stopped"):
            out.append(_t("ended.failed", lang, target=q(new.label), phase=q(phase)))
        else:
            out.append(_t("ended.ok", lang, target=q(new.label), stage=q(new.stage)))
    elif new.state == "stopped":
        out.append(_t("stopped.by", lang, user=_user(user)) if user
                   else _t("stopped.time", lang, hours=f"{stopped_after_hours or 0:g}"))
    return out


def watch_note(kind: str, *, lang: str, redactor: Redactor, target: str = "", n: int = 0) -> SlackMessage:
    """An ephemeral answer of `watch` / `unwatch`: started, already, full, none, stopped, kind."""
    body = _t(kind, lang, target=inline(clean_line(target, redactor)), n=n)
    return SlackMessage(text=body, blocks=[section(body)])
