"""Credentials by their place in a command line or a call, where no key word names them.

Cloud CLIs take keys as short flags (``obsutil config -i=AK -k=SK``) or positional arguments
(``mc alias set NAME URL AK SK``), ``rclone``/``aws configure set`` take space-separated key/value
pairs, SDK constructors take them positionally (``ObsClient("AK", "SK", ...)``), passwords arrive
quoted (``sshpass -p '...'``) or piped (``echo VALUE | docker login --password-stdin``), and
``.netrc``/s3fs password files have their own shapes. Each shape here names the words any of its
matches must contain, so the prefilter (catalog.G_TOOL) keeps clean lines away from these regexes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from bot.redact import pairs, printf
from bot.redact.allow import is_placeholder, key_shaped, looks_secret
from bot.redact.blocks import log_prefix
from bot.redact.keynames import classify
from bot.redact.later import later
from bot.redact.spans import PRIO_STRUCT, Span

# A shell word: quoted, or a run without blanks and quotes. Group ``v`` is the value without quotes.
_WORD = r"""(?:"(?P<{0}dq>[^"\n]*)"|'(?P<{0}sq>[^'\n]*)'|(?P<{0}bare>[^\s"'`|;&<>)]+))"""


def _word(name: str) -> str:
    return _WORD.format(name)


# Which flags of which tool carry which credential (the tool may take them on any subcommand).
_TOOL_FLAGS: dict[str, dict[str, str]] = {
    "obsutil": {"-i": "huawei-ak", "-k": "huawei-sk", "-t": "security-token"},
    "ossutil": {"-i": "alibaba-access-key-id", "-k": "alibaba-secret-key", "-t": "security-token"},
    "coscmd": {"-a": "cloud-access-key-id", "-s": "secret-key", "-t": "security-token"},
}
_TOOL = later(r"\b(?P<tool>obsutil|ossutil(?:64|mac64|arm64)?|coscmd)(?:\.exe)?\b")
_FLAG = later(r"(?<![^\s])(?P<f>-[A-Za-z])(?:=|[ \t]+)" + _word("v"))
# mc alias set NAME URL AK SK / mc config host add NAME URL AK SK ; qshell account AK SK NAME
_MC = later(
    r"\bmc(?:\.exe)?[ \t]+(?:alias[ \t]+(?:set|add)|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+\S+"
    r"[ \t]+" + _word("ak") + r"[ \t]+" + _word("sk")
)
_QSHELL = later(r"\bqshell[ \t]+account[ \t]+(?:--[ \t]+)?" + _word("ak") + r"[ \t]+" + _word("sk"))
# Space-separated key/value pairs: rclone config create|update, aws/tccli configure set, npm/yarn config set ...
_PAIRS_CMD = later(
    r"\b(?:rclone[ \t]+config[ \t]+(?:create|update)|configure[ \t]+set|config[ \t]+set|poetry[ \t]+config)\b"
)
_PAIR = later(r"(?<![^\s])(?P<k>[A-Za-z0-9_.:/@\-]+)[ \t]+(?=" + _word("v") + ")")
_AT = later(r"[ \t]*" + _word("v"))
_HTTP_BASIC = later(r"\bpoetry[ \t]+config[ \t]+http-basic\.\S+[ \t]+\S+[ \t]+" + _word("v"))
# Passwords given quoted or glued to a short flag: mysql -p'..', sshpass -p "..", redis-cli -a '..', docker login -p
_QUOTED_PW = later(
    r"""(?x)
    \b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|mongo|mongosh)\b[^\n]*?[ \t]-p(?=["'])"""
    + _word("my")
    + r"""
    | \bsshpass\b[^\n]*?[ \t]-p[ \t]*"""
    + _word("sp")
    + r"""
    | \bredis-cli\b[^\n]*?[ \t]-a[ \t]+"""
    + _word("rd")
    + r"""
    | \b(?:docker|podman|nerdctl|helm|skopeo|buildah|crane|oras|singularity|apptainer)\b[^\n]*?\blogin\b
      [^\n]*?[ \t](?:-p|--password)(?:[ \t]+|=)"""
    + _word("dk")
    + r"""
    | \b(?:zip|unzip)\b[^\n]*?[ \t]-P[ \t]+"""
    + _word("zp")
    + r"""
    | (?<![A-Za-z])-pass(?:in|out)?[ \t]+pass:"""
    + _word("os")
    + r"""
    | \bgh[ \t]+secret[ \t]+set\b[^\n]*?[ \t](?:-b|--body)(?:[ \t]+|=)"""
    + _word("gh")
    + r"""
    """
)
# Words one of which every match of _QUOTED_PW holds (a substring test is much cheaper than the regex)
_QUOTED_PW_WORDS = ("mysql", "mariadb", "mongo", "sshpass", "redis-cli", "login", "zip", "-pass", "secret")
# A value piped into a command that reads a password from stdin.
_PIPED = later(
    r"\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(?:'%s(?:\\n)?'[ \t]+|\"%s(?:\\n)?\"[ \t]+)?" + _word("v") + r"[ \t]*\|"
    r"[ \t]*(?:sudo[ \t]+-S\b|chpasswd\b|passwd[ \t]+--stdin\b|[^\n|]*?(?:--with-token|--password-stdin)(?![\w-]))"
)
_ADD_MASK = later(r"::add-mask::" + _word("v"))
# curl -u user:pass with quoting anywhere, also on a continuation line without the word curl
_CURL_USER = later(
    r"""(?:^|[ \t])(?:-u|--user|--proxy-user)(?:[ \t]+|=)(?:"[^"\n:]*"|'[^'\n:]*'|[^\s:"']*)"""
    r""":(?:"(?P<vdq>[^"\n]*)"|'(?P<vsq>[^'\n]*)'|(?P<vbare>[^\s"']+))"""
)
_CURL_USER_QUOTED = later(
    r"""(?:^|[ \t])(?:-u|--user|--proxy-user)(?:[ \t]+|=)(["'])[^"'\n:]*:(?P<v>[^"'\n]+)\1"""
)
# "-u user:pass" opening a continuation line of a curl command (after any log prefix)
_CURL_CONT = later(r"[ \t]*(?:-u|--user)[ \t=]")
_CURL_COOKIE = later(r"\bcurl\b[^\n]*?[ \t](?:-b|--cookie)(?:[ \t]+|=)" + _word("v"))
# .netrc: "machine H login U password P" on one line, or "password P" alone on its line
_NETRC = later(r"\bmachine[ \t]+\S+(?:[ \t]+login[ \t]+\S+)?[ \t]+password[ \t]+(?P<v>\S+)")
_NETRC_LINE = later(r"^[ \t]*(?:password|passwd)[ \t]+(?P<v>\S+)[ \t]*\r?$")
# Positional credentials in SDK constructors: ObsClient("AK", "SK", server=...), oss2.Auth('AK', 'SK') ...
_CTOR = later(
    r"\b(?:ObsClient|S3Client|Minio|Auth|StsAuth|AcsClient|Credentials?|BasicCredentials|GlobalCredentials"
    r"|AccessKeyCredential|StsTokenCredential|StaticCredentials|Session|CosConfig|Client)[ \t]*\((?P<args>[^()\n]*)"
)
_STR_ARG = later(r"""(?:^|,)[ \t]*(?P<q>["'])(?P<v>[A-Za-z0-9+/=_\-]{12,})(?P=q)[ \t]*(?=,|$)""")
# s3fs/obsfs password files: AK:SK (also bucket:AK:SK)
_AK_SK = later(r"(?<![A-Za-z0-9+/_\-])(?P<ak>[A-Z0-9]{16,32}):(?P<sk>[A-Za-z0-9/+=]{28,64})(?![A-Za-z0-9/+=])")
# SWR and other registries' login: "-u cn-north-4@AK" carries the access key ID in the user name
_REGISTRY_USER = later(r"(?:^|[ \t])(?:-u|--username)(?:[ \t]+|=)[\"']?[A-Za-z0-9_.\-]+@(?P<v>[A-Z0-9]{16,32})\b")
_WANDB = later(r"\bwandb\.login\([^)\n]*?\bkey[ \t]*=[ \t]*" + _word("v"))
_WANDB_CLI = later(r"\bwandb[ \t]+login\b[^\n]*?(?<![\w-])(?P<v>(?:local-)?[0-9a-f]{40})(?![0-9a-f])")


def _value(m: re.Match[str], name: str) -> tuple[int, int] | None:
    for suffix in ("dq", "sq", "bare"):
        group = name + suffix
        if group in m.re.groupindex and m.group(group) is not None:
            if m.end(group) > m.start(group) and not is_placeholder(m.group(group)):
                return m.start(group), m.end(group)
            return None
    if name in m.re.groupindex and m.group(name) is not None and not is_placeholder(m.group(name)):
        return m.start(name), m.end(name)
    return None


def _spans(m: re.Match[str], name: str, kind: str) -> Iterator[Span]:
    where = _value(m, name)
    if where is not None:
        yield Span(where[0], where[1], kind, PRIO_STRUCT)


def scan_line(line: str) -> list[Span]:
    """Every shape whose words the line holds (a substring test first: most candidates hold few)."""
    low = line.lower()
    spans: list[Span] = []
    if "util" in low or "coscmd" in low:
        spans.extend(_tools(line))
    if "mc" in low or "qshell" in low:
        for pattern in (_MC, _QSHELL):
            for m in pattern.finditer(line):
                spans.extend(_spans(m, "ak", "cloud-access-key-id"))
                spans.extend(_spans(m, "sk", "secret-key"))
    if "config" in low:
        cmd = _PAIRS_CMD.search(line)
        if cmd is not None:
            spans.extend(_pairs(line, cmd.end()))
            for m in _HTTP_BASIC.finditer(line):
                spans.extend(_spans(m, "v", "password"))
    if " -" in line and any(word in line for word in _QUOTED_PW_WORDS):
        for m in _QUOTED_PW.finditer(line):
            group = next((g for g in ("my", "sp", "rd", "dk", "zp", "os", "gh") if _value(m, g) is not None), None)
            if group is not None:
                spans.extend(_spans(m, group, "password"))
    if "|" in line and ("echo" in line or "printf" in line):
        for m in _PIPED.finditer(line):
            spans.extend(_spans(m, "v", "password"))
    if "/" in line and (("ak" in low and "sk" in low) or ("key" in low and "secret" in low)):
        spans.extend(pairs.slash_pairs(line))
    if "printf" in line:
        spans.extend(printf.scan_line(line))
    if "::add-mask::" in line:
        for m in _ADD_MASK.finditer(line):
            spans.extend(_spans(m, "v", "masked-value"))
    if "-u" in line or "--user" in line or "-b" in line or "--cookie" in line:
        spans.extend(_curl(line))
    if "pass" in low:
        spans.extend(_netrc(line))
    if "(" in line:
        spans.extend(_constructors(line))
    if ":" in line:
        for m in _AK_SK.finditer(line):
            ak = m.group("ak")
            if any(c.isdigit() for c in ak) and any(c.isalpha() for c in ak) and looks_secret(m.group("sk")):
                spans.append(Span(m.start("ak"), m.end("ak"), "cloud-access-key-id", PRIO_STRUCT))
                spans.append(Span(m.start("sk"), m.end("sk"), "secret-key", PRIO_STRUCT))
    if "@" in line and "-u" in line:
        for m in _REGISTRY_USER.finditer(line):
            if any(c.isdigit() for c in m.group("v")):
                spans.append(Span(m.start("v"), m.end("v"), "cloud-access-key-id", PRIO_STRUCT))
    if "wandb" in line and "login" in line:  # both patterns hold both words, in lower case
        for pattern in (_WANDB, _WANDB_CLI):
            for m in pattern.finditer(line):
                spans.extend(_spans(m, "v", "wandb-api-key"))
    return spans


def _netrc(line: str) -> Iterator[Span]:
    for m in _NETRC.finditer(line):
        yield from _spans(m, "v", "password")
    netrc = _NETRC_LINE.match(line)
    if netrc is not None:
        where = _value(netrc, "v")
        if where is not None and not line[where[0] : where[1]].isalpha():
            yield Span(where[0], where[1], "password", PRIO_STRUCT)


def _tools(line: str) -> Iterator[Span]:
    for tm in _TOOL.finditer(line):
        tool = tm.group("tool")
        flags = _TOOL_FLAGS["ossutil" if tool.startswith("ossutil") else tool]
        if tool == "coscmd" and not re.match(r"[ \t]+config\b", line[tm.end() :]):
            continue  # coscmd's -s means "sync" outside "config"
        for m in _FLAG.finditer(line, tm.end()):
            kind = flags.get(m.group("f"))
            if kind is not None:
                yield from _spans(m, "v", kind)


def _pairs(line: str, pos: int) -> Iterator[Span]:
    """``KEY VALUE`` pairs after a config command: the value of a secret's key goes."""
    for m in _PAIR.finditer(line, pos):  # every word may be a key: the lookahead consumes no value
        cls = classify(m.group("k"))
        value = _AT.match(line, m.end())
        if cls is not None and value is not None:
            where = _value(value, "v")
            if where is not None and (cls.strong or looks_secret(line[where[0] : where[1]])):
                yield Span(where[0], where[1], cls.kind, PRIO_STRUCT)


def _curl(line: str) -> Iterator[Span]:
    if "curl" in line or "wget" in line or _CURL_CONT.match(line, len(log_prefix(line))):
        for m in _CURL_USER_QUOTED.finditer(line):
            if not is_placeholder(m.group("v")):
                yield Span(m.start("v"), m.end("v"), "password", PRIO_STRUCT)
        for m in _CURL_USER.finditer(line):
            where = _value(m, "v")
            if where is not None and not line[where[0] : where[1]].isdigit():  # "-u 1000:1000" is uid:gid
                yield Span(where[0], where[1], "password", PRIO_STRUCT)
    for m in _CURL_COOKIE.finditer(line) if "curl" in line else ():
        where = _value(m, "v")
        if where is not None and "=" in line[where[0] : where[1]]:  # "-b cookies.txt" names a file
            yield Span(where[0], where[1], "cookie", PRIO_STRUCT)


def _constructors(line: str) -> Iterator[Span]:
    for m in _CTOR.finditer(line):
        args = m.group("args")
        found = [a for a in _STR_ARG.finditer(args) if looks_secret(a.group("v")) or key_shaped(a.group("v"))]
        if len(found) >= 2 or (found and "Client" not in m.group(0)):
            base = m.start("args")
            for a in found:
                yield Span(base + a.start("v"), base + a.end("v"), "cloud-credential", PRIO_STRUCT)
