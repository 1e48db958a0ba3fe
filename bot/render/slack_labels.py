"""Every label the Slack messages use, in Chinese and English, in one table: the diagnosis reply, the root
messages, the replies only the asker sees, the alert threads.

`label(key, lang, **fields)` formats the entry; a missing key or an unknown language is a programming or
input error with a one-line message. Field values are inserted as given: callers pass text that is already
cleaned and escaped for where it goes.
"""

from __future__ import annotations

from typing import Final

LANGS: Final = ("zh", "en")

_LABELS: Final[dict[str, tuple[str, str]]] = {
    # severities
    "sev.critical": ("严重", "CRITICAL"),
    "sev.error": ("错误", "ERROR"),
    "sev.warning": ("警告", "WARNING"),
    "sev.info": ("提示", "INFO"),
    "sev.none": ("无", "NONE"),
    # the diagnosis reply
    "no_case": ("没有匹配到已知案例", "No known case matched"),
    "no_case.healthy": ("没有发现错误级别的问题。", "Nothing at error level was found."),
    "not_found": ("没有找到目标", "Target not found"),
    "evidence": ("证据", "Evidence"),
    "next_steps": ("下一步", "Next steps"),
    "avoid": ("不要这样做", "Do not"),
    "escalate": ("升级给", "Escalate to"),
    "source": ("来源", "Source"),
    "others": ("其他发现", "Other findings"),
    "n_evidence": ("{n} 条证据", "{n} evidence"),
    "stage": ("已到达的阶段", "Last stage reached"),
    "first_error": ("首条错误", "First error"),
    "incomplete": ("证据不完整，以下内容未能读取", "Incomplete evidence: could not read"),
    "incomplete.short": ("证据不完整", "Incomplete evidence"),
    "not_collected": ("未采集", "Not collected"),
    "redactions": ("已脱敏 {n} 处", "Redacted {n} value(s)"),
    "as_of": ("诊断时间 {now}", "as of {now}"),
    "more_lines": ("… 另有 {n} 行，见文件 {file}", "… {n} more line(s), see the file {file}"),
    "more_findings": ("… 另有 {n} 条发现，见文件 {file}", "… {n} more finding(s), see the file {file}"),
    "more_items": ("… 另有 {n} 条，见文件 {file}", "… {n} more, see the file {file}"),
    "more_plain": ("… 另有 {n} 条", "… {n} more"),
    "cut_file": ("… 内容过长，已截断", "… too long, the rest was cut"),
    "escalate.user": ("提交者本人", "the job owner (user)"),
    "escalate.admin": ("平台管理员", "the platform admin"),
    "escalate.ci-infra": ("CI 基础设施团队", "CI infrastructure (ci-infra)"),
    "escalate.operator": ("集群运维", "the cluster operator"),
    # buttons
    "btn.ticket": ("生成管理员工单", "Ticket for the admin"),
    "btn.rerun": ("重新诊断", "Diagnose again"),
    "btn.evidence": ("全部证据（文件）", "All evidence as a file"),
    "btn.timeline": ("时间线（图片）", "Timeline picture"),
    "btn.helpful": (":+1: 有帮助", ":+1: Helpful"),
    "btn.wrong": (":-1: 不对", ":-1: Wrong"),
    # files
    "file.evidence": ("证据：{target}", "Evidence: {target}"),
    "file.ticket": ("管理员工单：{target}", "Admin ticket: {target}"),
    "file.none": ("（没有证据摘录）", "(no evidence excerpts)"),
    # root messages
    "root.collecting": ("正在诊断 {target}", "Diagnosing {target}"),
    "root.progress": ("{step} · 集群 {clusters} · Pod {pods} · 日志 {logs} · 请求 {requests}",
                      "{step} · clusters {clusters} · pods {pods} · logs {logs} · requests {requests}"),
    "root.verdict": ("{target} 的诊断结果", "Diagnosis of {target}"),
    "root.thread": ("详情、证据和按钮见本消息的话题 ↓", "Details, evidence and buttons are in the thread ↓"),
    "root.failed": ("无法诊断 {target}", "Could not diagnose {target}"),
    "root.failed_hint": ("这不是诊断结论；稍后可以重试。", "This is not a diagnosis; you can try again later."),
    # link previews
    "unfurl.phase": ("阶段状态", "Phase"),
    # ticket
    "ticket.head": ("管理员工单：{target}", "Ticket for the platform admin: {target}"),
    "ticket.back": ("返回诊断话题", "Back to the diagnosis thread"),
    # what the conversations say in one line
    "reply.lost": ("诊断意外中断（工作进程已退出），请重试",
                   "the diagnosis stopped unexpectedly (its worker process ended); try again"),
    "reply.failed": ("诊断失败，已记录日志", "the diagnosis failed; it has been logged"),
    "reply.unreadable": ("这个按钮的内容无法识别，机器人无法处理",
                         "That button names nothing the bot can act on (its value is not readable)"),
    # alert threads
    "alert.firing": ("告警", "Alert"),
    "alert.resolved": ("已恢复", "Resolved"),
    "alert.object": ("对象", "Object"),
    "alert.objects": ("对象列表", "Objects"),
    "alert.since": ("开始于", "Since"),
    "alert.severity": ("级别", "Severity"),
    "alert.next": ("下一步", "Next step"),
    "alert.avoid": ("不要", "Do not"),
    "alert.mute": ("静音 2 小时", "Mute 2h"),
    "alert.more": ("等另外 {n} 个", "and {n} more"),
    "alert.changed": ("有变化", "Changed"),
    "alert.resolved_reply": ("已恢复：最近几次巡检都未再出现。", "Resolved: not seen for the last checks."),
    "alert.reopened": ("再次触发", "Firing again"),
    "alert.unmuted": ("静音已结束，告警仍在触发", "Mute ended; still firing"),
    "alert.key": ("告警键", "Key"),
    "alert.diagnose": ("诊断", "Diagnose"),
    "alert.diagnose_pick": ("诊断其中一个对象", "Diagnose one of them"),
    "alert.ack": ("我来处理", "I'm on it"),
    "alert.on_it": ("{user} 正在处理", "{user} is on it"),
    "alert.degraded": ("（可能重复：状态存储不可用）", "(may be repeated: state store unavailable)"),
    # cases the checks raise about the bot's own reach rather than a runbook page: title, next step, do not
    "case.infra.check.cluster-unreadable.title": ("巡检无法读取某个集群", "Checks could not read a cluster"),
    "case.infra.check.cluster-unreadable.next": (
        "检查机器人对该集群的访问（kubeconfig context、RBAC、网络）；在能再次读取之前，该集群的其他告警保持不变。",
        "Check the bot's access to that cluster (kubeconfig context, RBAC, network); its other alerts stay "
        "open until it can be read again."),
    "case.infra.check.cluster-unreadable.avoid": ("不要把该集群没有告警理解为一切正常。",
                                                   "Do not read the silence from that cluster as healthy."),
    # replies only the asker sees

    "reply.usage": ("用法：{usage}", "Usage: {usage}"),
    "reply.usage.reason": ("{reason}。用法：{usage}", "{reason}. Usage: {usage}"),
    "reply.help": (
        "*{c} diagnose TARGET* [--namespace NS] [--lang zh|en]：诊断 RLark Job（`name` 或 `job/name`）、`pod/name` 或 "
        "`runner/name`，结果发在本频道的话题里\n*{c} ticket TARGET*：生成给平台管理员的工单\n*{c} alerts*：当前告警\n"
        "*{c} mute ALERT_KEY DURATION*（如 `2h`）/ *{c} unmute ALERT_KEY*：静音或恢复告警（仅管理员组）\n"
        "*{c} preflight job/NAME*、*nodes SELECTOR*、*compare job/A job/B*、*timeline TARGET*：运行前后的检查\n"
        "*{c} watch* / *unwatch TARGET*：在话题里跟踪 Job 或 pod；也可 `@rlark` 或私信\n"
        "告警上：*诊断* 回复在告警话题里，*我来处理* 表示已接手；:+1:/:-1: 评价诊断。\n"
        "*{c} help*：本帮助。机器人只读，不会修改或删除任何对象。",
        "*{c} diagnose TARGET* [--namespace NS] [--lang zh|en]: a RLark Job (`name`, `job/name`), `pod/name` or "
        "`runner/name`, answered in a thread\n*{c} ticket TARGET*: the admin ticket\n*{c} alerts*: what is firing\n"
        "*{c} mute KEY 2h* / *{c} unmute KEY*: admins only\n"
        "*{c} preflight job/NAME*, *nodes k=v*, *compare job/A job/B*, *timeline TARGET*: before and between runs\n"
        "*{c} watch*/*unwatch TARGET*: follow in a thread\n"
        "On alerts: *Diagnose*, *I'm on it*; :+1:/:-1: rate a diagnosis.\n"
        "*{c} help*: this help. The bot only reads; it never changes or deletes anything.",
    ),
    "reply.refusal": ("本频道无法诊断这个目标。请在绑定了该团队的频道里询问，或联系平台管理员。",
                      "This channel cannot diagnose that target. Ask in the channel bound to its team, "
                      "or ask the platform admin."),
    "reply.not_found": ("没有找到 {target}：{where}", "{target} was not found: {where}"),
    "reply.starting": ("机器人正在启动，请稍后再试。", "The bot is starting up; try again in a moment."),
    "reply.restarting": ("机器人正在重启，请稍后再试。", "The bot is restarting; try again in a moment."),
    "reply.duplicate": ("{target} 刚刚已在本频道诊断（或正在诊断），请看该话题：{link}",
                        "{target} was just diagnosed in this channel (or still is): see its thread {link}"),
    "reply.duplicate.nolink": ("{target} 刚刚已在本频道诊断（或正在诊断），请查看本频道里的话题。",
                               "{target} was just diagnosed in this channel (or still is); see its thread."),
    "reply.busy": ("当前诊断任务太多，请过一分钟再试。",
                   "Too many diagnoses are running right now; try again in a minute."),
    "reply.error": ("抱歉，处理这个请求时出错了，已记录日志。请稍后重试。",
                    "Sorry, something went wrong handling that request; it has been logged. Please try again later."),
    "reply.muted": ("已静音告警 {key}，时长 {duration}", "Muted the alert {key} for {duration}"),
    "reply.muted.until": ("已静音告警 {key}，时长 {duration}（至 {until}）",
                          "Muted the alert {key} for {duration} (until {until})"),
    "reply.unmuted": ("已恢复告警 {key}", "Unmuted the alert {key}"),
    "reply.feedback.up": ("谢谢！已记录你的 :+1:（每人每条一票，点另一个可以改票）。",
                          "Thanks! Your :+1: is recorded (one vote per person; click the other to change it)."),
    "reply.feedback.down": ("谢谢！已记录你的 :-1:，错误的答案会变成 runbook 的改进工作。",
                            "Thanks! Your :-1: is recorded; wrong answers become runbook work."),
    "reply.not_allowed": ("只有管理员用户组的成员可以静音或恢复告警。",
                          "Only members of the admin user group may mute and unmute alerts."),
    "reply.alerts.none": ("当前没有告警。", "No alerts are firing."),
    "reply.alerts.head": ("当前告警：{n} 条", "Alerts firing: {n}"),
    "reply.alerts.since": ("自 {since}", "since {since}"),
    "reply.alerts.muted": ("已静音至 {until}", "muted until {until}"),
    "reply.alerts.more": ("… 另有 {n} 条告警", "… {n} more alert(s)"),
    # watch: /rlark watch, its root and replies
    "watch.root": ("👀 正在跟踪 {target}：阶段 {stage}{case}",
                   "👀 Watching {target}: stage {stage}{case}"),
    "watch.root.ended": ("🏁 已停止跟踪 {target}：阶段 {stage}{case}",
                         "🏁 No longer watching {target}: stage {stage}{case}"),
    "watch.case": ("，问题 {case}", ", case {case}"),
    "watch.by": ("由 <@{user}> 发起，最长跟踪 {hours} 小时；{stop} 停止。",
                 "Started by <@{user}>; lasts at most {hours} h; {stop} stops it."),
    "watch.stage": ("阶段推进：{old} → {new}", "Stage advanced: {old} → {new}"),
    "watch.case.new": ("出现问题：{case}", "A case appeared: {case}"),
    "watch.case.gone": ("问题已消失：{case}", "The case cleared: {case}"),
    "watch.ended.ok": ("✅ {target} 已成功结束（阶段 {stage}）。跟踪结束。",
                       "✅ {target} succeeded (stage {stage}). Watch ended."),
    "watch.ended.failed": ("❌ {target} 已结束：{phase}。诊断见下一条回复。跟踪结束。",
                           "❌ {target} ended: {phase}. The diagnosis follows. Watch ended."),
    "watch.ended.gone": ("{target} 已不存在。跟踪结束。", "{target} no longer exists. Watch ended."),
    "watch.stopped.by": ("<@{user}> 停止了跟踪。", "<@{user}> stopped the watch."),
    "watch.stopped.time": ("已跟踪 {hours} 小时，跟踪停止。",
                           "Watched for {hours} h: the watch stopped."),
    "watch.started": ("已开始跟踪 {target}，请看本频道的话题。",
                      "Now watching {target}; see its thread in this channel."),
    "watch.already": ("本频道已经在跟踪 {target}。", "This channel already watches {target}."),
    "watch.full": ("本频道已有 {n} 个跟踪，达到上限；请先 unwatch 一个。",
                   "This channel holds {n} watches, the limit; unwatch one first."),
    "watch.none": ("本频道没有在跟踪 {target}。", "This channel does not watch {target}."),
    "watch.stopped": ("已停止跟踪 {target}。", "Stopped watching {target}."),
    "watch.kind": ("watch 只能跟踪 Job 或 pod。", "watch follows a Job or a pod."),
    # entry: mentions, DMs, the message shortcut and the modal
    "entry.pick": ("这条消息提到了多个目标，选一个诊断：",
                   "That message names several targets; pick one to diagnose:"),
    "entry.pick.placeholder": ("选择目标", "Pick a target"),
    "entry.none": ("这条消息没有提到 job/NAME、pod/NAME、runner/NAME 或 RLark 任务链接。",
                   "That message names no job/NAME, pod/NAME, runner/NAME or RLark job URL."),
    "entry.verbs": ("在提及或私信里可以用：diagnose、ticket、watch、unwatch、help。",
                    "In a mention or a DM: diagnose, ticket, watch, unwatch or help."),
    "entry.modal.title": ("诊断", "Diagnose"),
    "entry.modal.submit": ("诊断", "Diagnose"),
    "entry.modal.channel": ("回复发到哪个频道", "Channel to answer in"),
    "entry.modal.target": ("目标：JOB、job/NAME、pod/NAME 或 runner/NAME",
                           "Target: JOB, job/NAME, pod/NAME or runner/NAME"),
    "entry.modal.namespace": ("命名空间（pod 或 runner 可选）",
                              "Namespace (optional, pods and runners)"),
    "entry.modal.lang": ("语言", "Language"),
    # home: the App Home tab
    "home.title": ("RLark 诊断机器人", "RLark diagnosis bot"),
    "home.status.ok": ("✅ 机器人、存储和证据来源都正常。",
                       "✅ The bot, its store and its evidence source are working."),
    "home.status.bad": ("⚠️ 机器人部分不可用：{reason}", "⚠️ The bot is partly unavailable: {reason}"),
    "home.agents.ok": ("集群与 agent：你的频道里没有 agent 或节点池告警。",
                       "Clusters and agents: no agent or node-pool alert in your channels."),
    "home.agents.bad": ("集群与 agent：{n} 个 agent 或节点池告警（见下）。",
                        "Clusters and agents: {n} agent or node-pool alerts (below)."),
    "home.alerts": ("你所在的绑定频道里正在告警（{n}）", "Firing in the bound channels you are in ({n})"),
    "home.alerts.none": ("你所在的绑定频道里没有告警。",
                         "Nothing is firing in the bound channels you are in."),
    "home.more": ("还有 {n} 条未显示。", "{n} more not shown."),
    "home.recent": ("你最近的诊断", "Your recent diagnoses"),
    "home.recent.none": ("还没有诊断。在频道里输入 {c} diagnose TARGET 试试。",
                         "None yet. Try {c} diagnose TARGET in a channel."),
    "home.watches": ("你的跟踪", "Your watches"),
    "home.watches.none": ("没有正在进行的跟踪。", "No watch is running."),
    "home.updated": ("打开本页时更新：{at}", "Updated when you opened this tab: {at}"),
    "home.ack": ("我来处理", "I'm on it"),
    "home.diagnose": ("诊断", "Diagnose"),
    "home.on_it": ("{user} 正在处理", "{user} is on it"),
}


def label(key: str, lang: str, /, **fields: object) -> str:
    """The `lang` text of `key`, with `fields` filled in."""
    pair = _LABELS.get(key)
    if pair is None:
        raise KeyError(f"no Slack label {key!r}")
    return pair[lang_index(lang)].format(**fields) if fields else pair[lang_index(lang)]


def lang_index(lang: str) -> int:
    """0 for Chinese, 1 for English; anything else is refused with one line."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: use zh or en")
    return LANGS.index(lang)


def severity(sev: str, lang: str) -> str:
    """The severity's label; an unknown severity is shown as it is, upper-cased."""
    key = f"sev.{sev}"
    return label(key, lang) if key in _LABELS else sev.upper()


def escalation(who: str, lang: str) -> str:
    """Whom to escalate to, in words; an unknown value is shown as it is."""
    key = f"escalate.{who}"
    return label(key, lang) if key in _LABELS else who


def has(key: str) -> bool:
    return key in _LABELS


def keys() -> list[str]:
    """Every label key (for tests that check both languages are filled)."""
    return list(_LABELS)
