"""Pasted RLark UI job links (`RLARK_BOT_UI_URL` + `/jobs/<name>`) previewed with the Job's phase and stage
(`link_shared` -> `chat.unfurl`, CONTRACT §11), scope-checked like a command: a channel that is not bound, a
Job outside its scope or one that does not exist gets no preview at all (and nothing said). Only links that
are exactly a job page are previewed (no query string, nothing the bot would echo back unread)."""

from __future__ import annotations

import re

from bot.conversations.access import allows, binding_for
from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.ports import SlackDown, seal_message
from bot.conversations.requests import hand_off
from bot.errors import UserError
from bot.models import Target
from bot.render.report import build_report
from bot.render.slack_message import SlackMessage
from bot.render.slack_unfurl import unfurl_message
from bot.workers.api import WorkerLost

MAX_LINKS = 5  # previews per message


def job_links(urls: list[str], ui_url: str | None) -> dict[str, str]:
    """link -> Job name, for the links that are exactly `<ui_url>/jobs/<name>` (a trailing `/` allowed)."""
    if not ui_url:
        return {}
    page = re.compile(re.escape(ui_url.rstrip("/")) + r"/jobs/([a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)/?")
    found: dict[str, str] = {}
    for url in urls:
        m = page.fullmatch(url)
        if m is not None and len(found) < MAX_LINKS:
            found[url] = m.group(1)
    return found


def unfurl_later(deps: Deps, *, channel: str, ts: str, urls: list[str], audit: Audit) -> None:
    """On the bounded pool: each job link this channel may see, previewed; the rest left alone."""
    links = job_links(urls, deps.settings.ui_url)
    if not links or not channel or not ts:
        audit.outcome("ignored")
        return

    def work() -> str:
        previews = {}
        for url, name in links.items():
            preview = _preview(deps, channel=channel, name=name)
            if preview is not None:
                previews[url] = seal_message(preview, deps.redactor)
        if not previews:
            return "refused"
        try:
            deps.sink.unfurl(channel=channel, ts=ts, unfurls=previews)
        except SlackDown as exc:
            deps.log.warning("link previews not delivered", extra={"channel": channel, "reason": str(exc)})
            return "slack_down"
        return "unfurled"

    hand_off(deps, work=work, lang="en", audit=audit, tell=lambda _: None)  # nobody is told anything


def _preview(deps: Deps, *, channel: str, name: str) -> SlackMessage | None:
    binding = binding_for(deps.settings, channel)
    if binding is None:
        return None
    target = Target.parse(f"job/{name}")
    try:
        where = deps.engine.locate(target)
        if not allows(binding, target, where=where):
            return None
        diag = deps.engine.diagnose(target)
    except (UserError, WorkerLost) as exc:
        deps.log.info("no link preview", extra={"target": str(target), "reason": str(exc)})
        return None
    return unfurl_message(build_report(diag, binding.lang), redactor=deps.redactor, lang=binding.lang)
