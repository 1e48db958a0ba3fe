"""Log patterns read in every locale the runners and workers print in.

A runbook's log pattern names a message in English, the C locale's wording. The same program run under
`LANG=zh_CN.UTF-8` prints the translation from its message catalog instead (glibc's strerror and strsignal, bash,
gcc, the dynamic loader): `No space left on device` becomes `设备上没有空间`, `Killed signal terminated program`
becomes `已杀死 信号终止了程序`. `localise` rewrites each English message a pattern quotes into an alternation of
the English text and its translations, so one pattern covers both and no runbook entry has to list them. The
catalog holds whole messages only (never a lone word such as "Killed"), as the catalogs spell them.

Seed: rlark-jobs § Worker 异常或日志显示进程失败: 定位第一条错误，而不是只看最后一行 - whatever the locale of the
line.
"""

from __future__ import annotations

import re

# English message (as the C locale prints it) -> its zh_CN translations (glibc, bash, gcc, ld.so catalogs).
CATALOG: dict[str, tuple[str, ...]] = {
    # glibc strerror
    "No such file or directory": ("没有那个文件或目录",),
    "Permission denied": ("权限不够",),
    "No space left on device": ("设备上没有空间",),
    "Connection refused": ("拒绝连接",),
    "Read-only file system": ("只读文件系统",),
    "Disk quota exceeded": ("超出磁盘限额",),
    "Connection timed out": ("连接超时",),
    "Network is unreachable": ("网络不可达",),
    "No route to host": ("没有到主机的路由",),
    "Cannot allocate memory": ("无法分配内存",),
    "Too many open files": ("打开的文件过多",),
    "Broken pipe": ("断开的管道",),
    "Address already in use": ("地址已在使用",),
    "Connection reset by peer": ("连接被对方重设", "连接被对方重置"),
    "Device or resource busy": ("设备或资源忙",),
    "Operation not permitted": ("不允许的操作",),
    "Input/output error": ("输入/输出错误",),
    "Stale file handle": ("过旧的文件控柄", "陈旧的文件句柄"),
    "Exec format error": ("可执行文件格式错误",),
    # getaddrinfo (gai_strerror)
    "Name or service not known": ("未知的名称或服务",),
    "Temporary failure in name resolution": ("域名解析暂时失败",),
    # strsignal, as bash reports a child's death
    "Segmentation fault": ("段错误",),
    "Bus error": ("总线错误",),
    "Illegal instruction": ("非法指令",),
    "core dumped": ("核心已转储",),
    # bash
    "command not found": ("未找到命令",),
    # ld.so
    "cannot open shared object file": ("无法打开共享对象文件",),
    # gcc driver: "%s signal terminated program %s" with strsignal(SIGKILL), and the ICE it reports
    "Killed signal terminated program": ("已杀死 信号终止了程序",),
    "internal compiler error: Killed": ("编译器内部错误：已杀死",),
}

# An English message where it stands as plain text in a pattern: not escaped, not already inside an alternation
# this module wrote (a pattern is localised once; `localise` is idempotent).
_MESSAGES = "|".join(re.escape(en).replace("\\ ", " ") for en in sorted(CATALOG, key=len, reverse=True))
_FINDER = re.compile(r"(?:(?<=\\b)|(?<![\\\w]))(" + _MESSAGES + r")(?!\w)", re.IGNORECASE)
_BY_LOWER = {en.lower(): zh for en, zh in CATALOG.items()}


def localise(pattern: str) -> str:
    """`pattern` with every English catalog message it quotes also matching its translations."""

    def one(m: re.Match[str]) -> str:
        if pattern[max(0, m.start() - 3):m.start()] == "(?:" and pattern.startswith("|", m.end()):
            return m.group(0)  # already localised
        translations = [t for t in _BY_LOWER[m.group(0).lower()] if t not in pattern]
        if not translations:
            return m.group(0)
        return "(?:" + "|".join([m.group(0), *(re.escape(t).replace("\\ ", " ") for t in translations)]) + ")"

    return _FINDER.sub(one, pattern)
