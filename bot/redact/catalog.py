"""The prefilter's pattern catalogue: for each detector, what any of its matches must contain."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from bot.redact.boxes import BORDERS
from bot.redact.cjk import CJK_KEYS
from bot.redact.decode import base64_forms
from bot.redact.keynames import LAST_WORD_REJECTS, ML_WORDS, PLAIN_KEYS, classify
from bot.redact.later import later
from bot.redact.prefilter import MatchFilter, Pattern
from bot.redact.rules import BASE64_PREFIXES, TOKEN_RULES
from bot.redact.structure import KEY_WORDS
from bot.redact.urls import HOOK_MARKERS, SIGNING_PARAMS, TOKEN_PARAMS

# Group ids after the token rules (which use their index in TOKEN_RULES).
_BASE = len(TOKEN_RULES)
G_STRUCT = _BASE + 0  # key-aware masking (assignments, fields, flags, env name/value)
G_URL = _BASE + 1  # signed-URL parameters and userinfo
G_PEM = _BASE + 2
G_ANSI = _BASE + 3
G_CMD = _BASE + 4  # command lines and auth headers with their own shapes (mysql -p, Bearer, HMAC)
G_JSONESC = _BASE + 5
G_B64 = _BASE + 6  # base64 forms of token prefixes and key words
G_KNOWN = _BASE + 7
G_NAME = _BASE + 8  # the name: of a Kubernetes env entry whose value: follows
G_TOOL = _BASE + 9  # credentials placed by a command or call (commands.py)
G_CJK = _BASE + 10  # Chinese key words, full-width separators (cjk.py)
G_KSECRET = _BASE + 11  # a Kubernetes Secret's data:/stringData: (every value is secret)
G_URLENC = _BASE + 12  # URL-encoded text worth decoding (no key shows through the encoding)
G_WEAKKEY = _BASE + 13  # a weak "..._key" with a value that may look secret (the pattern itself checks it)
TOKEN_GROUPS = frozenset(range(_BASE))

# Key words also looked for inside base64 (case variants, since base64 is case-sensitive).
_B64_WORDS = (
    "password",
    "passwd",
    "secret",
    "token",
    "auth",
    "private",
    "credential",
    "api_key",
    "apikey",
    "-----BEGIN",
    "PRIVATE KEY",
    "Bearer",
    "access_key",
    "ACCESS_KEY",
    "_KEY=",
    "_AK=",
    "_SK=",
    "_ID=",
    "_SECRET",
    "_TOKEN",
    "PASSWORD",
    '"auths"',
    '"auth"',
    '"password"',
)


def _lit(text: str) -> str:
    return re.escape(text)


_KEY_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_WINDOW = 160  # a key longer than this is never vetoed (fail closed)
_VALUE_WINDOW = 256  # a run reaching past this counts as long (fail closed)
_RUN = later(rb"[^ \t\n]*")  # a value may hold "\r" (tqdm redraws); a line ends at "\n"
# SEP below, reversed: separator, blanks, then an optional closing quote (plain, escaped or URL-encoded)
_SEP_REVERSED = later(
    rb"[\"'`][ \t]*,[ \t]*[\"']\\*|>"
    rb"|(?:[\"'`][ \t]*)?(?:[:=][.?+|:]{0,2}|[aAdD]3(?:52)*%|22(?:52)*%)(?:[ \t+]|02(?:52)*%)*"
    rb"(?:[\"']\\*|[27]2(?:52)*%)?"
)
# a typed declaration read backwards: the value's quote, "=", the type, blanks or ":" ("var k string = '")
_TYPED_REVERSED = later(rb"[\"'`][ \t]*=:?[ \t]*[A-Za-z0-9_.\[\]]{1,25}(?:[ \t]+|[ \t]*:[ \t]*)")
# byte before a key -> the rest of an escape sequence that may open the key's characters
_CSI_TAIL = later(rb"[0-9]*[A-Za-z]")  # ANSI "\x1b[1;32m"
_ESCAPE_TAILS = {
    ord("%"): later(rb"(?:25)*[0-9A-Fa-f]{2}"),  # URL "%22", twice encoded "%2522"
    ord("["): _CSI_TAIL,
    ord(";"): _CSI_TAIL,
    ord("\\"): later(rb"u[0-9A-Fa-f]{4}|[nrtbf]"),  # JSON "\n", "\u0022"
}
_LOWER, _UPPER, _DIGIT = (
    frozenset(b"abcdefghijklmnopqrstuvwxyz"),
    frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    frozenset(b"0123456789"),
)


def secret_key_at(data: bytes, frm: int, to: int) -> bool:
    """Prefilter veto for G_STRUCT: the key before the separator must name a secret (and, for a weak
    key, the value after it must be able to look like one).

    Mirrors structure._keys/_assignment, which expand from the key word over the same characters,
    skip keys that ``classify`` rejects, and mask a weak key's value only when ``looks_secret``; so
    vetoing here loses nothing (``pad_token``, ``KeyError:``, ``"cache_key": "train/loss"`` are never
    candidates). Works from the match end alone, so the patterns need no start-of-match tracking."""
    lo = max(0, to - _WINDOW)
    w = data[lo:to]
    if not w:
        return True
    flag = w[-1] in b" \t+" or w.endswith(b"%20")  # "--password x": a flag, then whitespace, then its value
    if flag:
        return _key_at(w, len(w) - (3 if w.endswith(b"%20") else 1), lo, data, to, flag=True)
    rev = w[::-1]
    m = _SEP_REVERSED.match(rev)
    if _key_at(w, len(w) - (m.end() if m is not None else 1), lo, data, to, flag=False):
        return True
    typed = _TYPED_REVERSED.match(rev) if rev[:1] in b"\"'`" else None
    return typed is not None and _key_at(w, len(w) - typed.end(), lo, data, to, flag=False)


def _key_at(w: bytes, e: int, lo: int, data: bytes, to: int, *, flag: bool) -> bool:
    """Is the key ending at ``w[:e]`` a secret's (see secret_key_at)?"""
    head = w[:e]
    s = len(head.rstrip(_KEY_CHARS))
    if s == 0 and lo > 0:
        return True  # the key may start before the window: do not guess
    keys = [head[s:]]
    # The key may start inside escapes that a decoded view removes (``%22pass%22%3A``, ``\x1b[1;32mpass=``,
    # a JSON-escaped ``\nAuthorization:``, URL-encoded ANSI ``%1B%5B0mpass``): judge it also as that view sees it.
    prev = head[s - 1] if s > 0 else -1
    for _ in range(3):
        escape = _ESCAPE_TAILS.get(prev)
        inner = escape.match(keys[-1]) if escape is not None else None
        if inner is None:
            break
        piece = keys[-1][: inner.end()]
        prev = int(piece[-2:], 16) if prev == 0x25 else -1  # the character a URL escape stands for
        keys.append(keys[-1][inner.end() :])
    if flag:
        return any(k.startswith(b"-") and _key_verdict(k) is not None for k in keys)
    verdicts = [v for v in map(_key_verdict, keys) if v is not None]
    if not verdicts:
        return False
    verdict = any(verdicts)
    return verdict or _value_may_look_secret(data, to)


@lru_cache(maxsize=8192)
def _key_verdict(key: bytes) -> bool | None:
    """None: not a secret's key; True: mask whatever the value; False: only a credential-looking value."""
    text = key.decode("ascii", "replace")
    cls = classify(text)
    if cls is None:
        return None
    return cls.strong or text.lower().lstrip("-") in {"authorization", "proxy-authorization"}


def _value_may_look_secret(data: bytes, to: int) -> bool:
    """False only when no value the structure layer could take here passes ``looks_secret``: every such
    value lies inside the whitespace-free run after the separator (a value with a space never looks
    secret), so a run shorter than 8, or shorter than 24 with fewer than two character classes, is safe."""
    window = data[to : to + _VALUE_WINDOW]
    p = len(window) - len(window.lstrip(b" \t"))
    q = p
    while q < len(window) and window[q] == 0x5C:  # backslashes before a quote: JSON in JSON
        q += 1
    if q < len(window) and window[q] in b"\"'":
        p = q + 1
    m = _RUN.match(window, p)
    run = m.group() if m is not None else b""
    if len(run) >= 24 or m is None or (len(window) == _VALUE_WINDOW and m.end() >= len(window)):
        return True
    if len(run) < 8:
        return False
    if not run.isascii():
        return True
    chars = frozenset(run)
    return (bool(chars & _LOWER) + bool(chars & _UPPER) + bool(chars & _DIGIT)) >= 2


def _alternation(parts: Sequence[str]) -> str:
    return "(?:" + "|".join(parts) + ")"


def _char_class(chars: Sequence[str]) -> str:
    """A compact class for alphanumerics, as ranges: ``[0-9A-Za-gj-z]``."""
    if len(chars) == 1:
        return re.escape(chars[0])
    codes = sorted(ord(c) for c in chars)
    parts, start, prev = [], codes[0], codes[0]
    for code in [*codes[1:], -1]:
        if code == prev + 1:
            prev = code
            continue
        parts.append(
            chr(start) if start == prev else f"{chr(start)}-{chr(prev)}" if prev > start + 1 else chr(start) + chr(prev)
        )
        start = prev = code
    return "[" + "".join(parts) + "]"


def _case_forms(word: str) -> set[str]:
    return {word.lower(), word.upper(), word.capitalize()}


def _not_in(excluded: set[str], prefix: str = "") -> list[str]:
    """Regex (case-sensitive) for ``prefix`` in any letter case followed by ``[A-Za-z0-9]*``, minus the
    strings in ``excluded`` (each of which starts with ``prefix`` in some case): a trie complement,
    returned as its top-level alternatives (Hyperscan limits the length of one expression)."""
    trie: dict[str, Any] = {}
    for word in excluded:
        node = trie
        for c in word:
            node = node.setdefault(c, {})
        node[""] = {}

    def rest(depth: int) -> str:
        tail = prefix[depth:]
        return (f"(?i:{re.escape(tail)})" if tail else "") + "[A-Za-z0-9]*"

    def walk(node: dict[str, Any], depth: int) -> str:
        alts = branches(node, depth)
        body = _alternation(alts) if alts else "(?!)"
        optional = depth >= len(prefix) and "" not in node
        return f"(?:{body})?" if optional and alts else body

    def branches(node: dict[str, Any], depth: int) -> list[str]:
        allowed = {prefix[depth].lower(), prefix[depth].upper()} if depth < len(prefix) else set(_ALNUM)
        kids = sorted(c for c in node if c)
        alts = [re.escape(c) + walk(node[c], depth + 1) for c in kids]
        other = sorted(allowed - set(kids))
        if other:
            cls = _char_class(other)
            alts.append(cls + rest(depth + 1))
        return alts

    top = branches(trie, 0)
    if not prefix and "" not in trie:
        top.append("")
    return top


# After a key: a closing quote, blanks, the separator (each may be escaped or URL-encoded).
SEP = (
    r"(?:(?:\\*[\"']|%(?:25)*2[27])?(?:[ \t+]|%(?:25)*20)*(?:[.?+|]{0,2}[:=]|%(?:25)*(?:3[adAD]|22))"
    r"|\\*[\"'][ \t]*,[ \t]*\\*[\"']|>"
    r"|(?:[ \t]+|[ \t]*:[ \t]*)[A-Za-z_][A-Za-z0-9_.\[\]]{0,24}[ \t]*:?=[ \t]*[\"'`])"
)
_MAX_EXPR = 12000  # Hyperscan rejects longer expressions; one alternation scans much faster than many


def _packed(head: str, alts: Sequence[str]) -> list[str]:
    """``head(?:a|b|...)`` in as few expressions as the length limit allows."""
    out: list[str] = []
    cur: list[str] = []
    for alt in alts:
        if cur and len(head) + sum(len(a) + 1 for a in cur) + len(alt) > _MAX_EXPR:
            out.append(head + _alternation(cur))
            cur = []
        cur.append(alt)
    if cur:
        out.append(head + _alternation(cur))
    return out


# Words before a last segment "key" that make classify call it strong: anywhere in the key (``api``,
# ``private``, ``wandb``, ``pw``) or right before it (``access_key``, ``signing_key``, ``client_key`` ...).
# Key words of KEY_WORDS in an earlier segment are found by the other patterns.
_STRONG_BEFORE_KEY = ("api", "private", "wandb", "pw")
_STRONG_KEY_ENDS = ("access", "signing", "encryption", "master", "account", "client", "tls", "ssl")
WEAK_KEY = r"[_.\-](?:key|KEY|Key)"
# What a weak key's value must be able to be (see _value_may_look_secret): a run of 24, or one holding two
# character classes (or a non-ASCII byte) within its first 24 characters.
WEAK_VALUE = (
    r"[ \t]*(?:\\*[\"'])?(?:[^ \t\n]{24}|[^ \t\n]{0,22}"
    r"(?:[a-z][^ \t\n]{0,22}[A-Z0-9]|[A-Z][^ \t\n]{0,22}[a-z0-9]|[0-9][^ \t\n]{0,22}[A-Za-z]|[^\x00-\x7f]))"
)


@lru_cache(maxsize=2)
def key_tails(flag: bool = False) -> tuple[str, ...]:
    """Regexes for the end of a key holding a key word, up to its separator, leaving out keys whose
    last word makes ``classify`` reject them. A superset of the keys structure.py acts on:
    tests/redact check it against ``classify`` on generated keys. ``flag``: the key of a command-line
    flag, which starts with ``-``."""
    rejects: set[str] = set()
    for word in LAST_WORD_REJECTS:
        rejects |= _case_forms(word)
    words = "(?i:" + "|".join(KEY_WORDS) + ")"
    lead = r"-[A-Za-z0-9_.\-]*" if flag else ""
    # the key word in an earlier segment; the last segment (maximal: separators around it) is no reject
    out = _packed(rf"{lead}{words}[A-Za-z0-9_.\-]*[_.\-]", _not_in(rejects))
    # "...key_id" / "accessKeyId": classify keeps an id that ends in "keyid"
    out.append(rf"{lead}(?i:key)[_.\-]*(?i:i)[_.\-]*(?i:d)")
    # the key word inside the last segment, after its first character
    out.append(rf"{lead}[A-Za-z0-9]{words}[A-Za-z0-9]*")
    # the key word opening the last segment
    if flag:
        opening: list[str] = []
        for word in KEY_WORDS:
            opening.extend(_not_in({r for r in rejects if r.lower().startswith(word)}, word))
        out.extend(_packed(r"-(?:[A-Za-z0-9_.\-]*[_.\-])?", opening))
        return tuple(out)
    plain: set[str] = set()
    for word in PLAIN_KEYS:
        plain |= _case_forms(word) | {word}
    tokens = _case_forms("token")
    keys = _case_forms("key")
    after: list[str] = []  # after a separator; a bare "token" only below, to check the segment before it
    for word in KEY_WORDS:
        excl = {r for r in rejects if r.lower().startswith(word)}
        # the last segment is the whole key: no earlier word can make it a secret's. One expression per
        # word: Hyperscan then anchors each on its word instead of on every letter opening a word.
        whole = _not_in(excl | {p for p in plain if p.lower().startswith(word)}, word)
        out.extend(_packed(r"(?:^|[^A-Za-z0-9_.\-])", whole))
        after.extend(_not_in(excl | (tokens if word == "token" else set()) | (keys if word == "key" else set()), word))
    out.extend(_packed(r"[_.\-]", after))
    # a last segment "key" after a separator: a secret's whatever its value after the words that make it
    # strong, else (``cache_key``, ``sort_key``, ``full_key``) only when its value can look like a credential
    key = "(?:key|KEY|Key)"
    out.append(rf"(?i:{'|'.join(_STRONG_BEFORE_KEY)})[A-Za-z0-9_.\-]*[_.\-]{key}")
    out.append(rf"(?i:{'|'.join(_STRONG_KEY_ENDS)})[_.\-]+{key}")
    # "..._token" after a segment that is no ML word (``pad_token``, ``eos_token``: classify rejects them)
    ml: set[str] = set()
    for word in ML_WORDS:
        ml |= _case_forms(word)
    before = [p for p in _not_in(ml) if p]
    out.extend(p + r"[_.\-]+(?:token|TOKEN|Token)" for p in _packed(r"(?:^|[^A-Za-z0-9])", before))
    out.append(r"(?:^|[^A-Za-z0-9])[_.\-]+(?:token|TOKEN|Token)")
    return tuple(out)


FILTERS: dict[int, MatchFilter] = {G_STRUCT: secret_key_at}

_TOOL_LITERALS = (
    *("obsutil", "ossutil", "coscmd", "qshell", "rclone", "poetry", "add-mask", "password-stdin", "chpasswd"),
    *("/dev/stdin",),
    *("--stdin", "--with-token", "sshpass", "mysql", "mariadb", "mongo", "redis-cli", "machine", "wandb.login"),
    *("wandb login", "pass:", "mc alias", "mc config", "mc.exe", "configure set", "config set", "sudo -S"),
    *("gh secret", "curl ", "wget ", "password ", "passwd ", "Client(", "Auth(", "Credentials(", "Credential("),
    *("Minio(", "Session(", "CosConfig(", "printf", "ak/sk", "ak / sk", "key/secret", "key / secret"),
)
_TOOL_CASED = (" -P ",)  # zip/unzip's password flag: the case matters
_TOOL_REGEXES = (
    r"(?:-u|--user)[ \t=]+[\"']?[A-Za-z0-9_.@$-]{1,64}[\"']?:",
    # s3fs/obsfs password files ("AK:SK", "bucket:AK:SK", echoed into the file, in any log context): the
    # access key id's last 16 characters and its colon. Shorter than the whole pair on purpose: a leading
    # class repeat with no context is what Hyperscan finds fastest, and such runs are rare in logs.
    r"[A-Z0-9]{16}:",
)
# registry logins carry the access key ID in the user name ("-u cn-north-4@AK")
_TOOL_LITERALS_LOGIN = ("docker login", "nerdctl login", "podman login", "registry login", "buildah login")


def _tool_patterns() -> list[Pattern]:
    pats = [Pattern(_lit(word), G_TOOL, caseless=True) for word in _TOOL_LITERALS]
    pats.extend(Pattern(_lit(word), G_TOOL) for word in _TOOL_CASED)
    pats.extend(Pattern(_lit(word), G_TOOL, caseless=True) for word in _TOOL_LITERALS_LOGIN)
    pats.extend(Pattern(regex, G_TOOL, multiline="^" in regex) for regex in _TOOL_REGEXES)
    # a blob about to be decoded is worth decoding even when no key word shows through its base64
    for word in ("base64 -d", "base64 -D", "base64 --decode", "b64decode", "passwd-s3fs", "passwd-obsfs", ".passwd"):
        pats.append(Pattern(_lit(word), G_B64))
    return pats


def _key_patterns() -> list[Pattern]:
    """Key words only in the shapes the structure layer acts on: an assignment (``KEY=``, ``"key":``,
    ``\\"key\\":``, URL-encoded ``key%3D``), a command-line flag (``--password x``), or the ``name:`` of a
    Kubernetes env entry. Bare words ("tokens/s", "KeyError") in prose are not candidates."""
    pats: list[Pattern] = []
    words = "|".join(KEY_WORDS)
    chars = r"[A-Za-z0-9_.\-]*"
    sep = SEP
    # The pure-re fallback applies no veto and checks every line it finds in full: there the short
    # broad form is faster than the precise one.
    broad = rf"(?i:{words}){chars}{sep}"
    broad_flag = rf"-{chars}(?i:{words}){chars}(?:[ \t+]|%20)"
    pats.extend(Pattern(tail + sep, G_STRUCT, fallback=broad) for tail in key_tails())
    pats.append(Pattern(WEAK_KEY + sep + WEAK_VALUE, G_WEAKKEY, fallback=broad))
    # a flag's value follows whitespace, URL-encoded as "%20" or "+" inside a query string
    pats.extend(Pattern(tail + r"(?:[ \t+]|%20)", G_STRUCT, fallback=broad_flag) for tail in key_tails(flag=True))
    pats.append(Pattern(rf"name\\*[\"']?[ \t]*[:=][ \t]*\\*[\"']?{chars}(?:{words})", G_NAME, caseless=True))
    return pats


def _encoded_patterns() -> list[Pattern]:
    """Text whose decoded view may show what its encoding hides: ANSI escapes, JSON escapes, base64."""
    pats: list[Pattern] = []
    # An escape sequence only hides something when it is glued inside a token or between a key and
    # its separator; colour around whole words leaves every other pattern visible.
    pats.append(Pattern(r"[A-Za-z0-9_\-]\x1b\[[0-9;]*[A-Za-z][A-Za-z0-9_\-=:]", G_ANSI))
    pats.append(Pattern(r"[A-Za-z0-9_\-](?:\\u001[bB]|%1[bB])", G_ANSI))  # the same, JSON- or URL-encoded
    pats.append(
        Pattern(r"[A-Za-z0-9_\-][\"']?[ \t]*(?:\x1b\[[0-9;]*[A-Za-z][ \t]*)+[\"']?[ \t]*(?:[=:]|%3[aAdD])", G_ANSI)
    )  # key (its closing quote), colour, sep: a printed dict's "'password'\x1b[0m: "
    pats.append(Pattern(r"[=:][ \t]*(?:\x1b\[[0-9;]*[A-Za-z][ \t]*)+[\"']", G_ANSI))  # sep, colour, a quoted value
    # box-drawing borders (rare in logs; a literal is what the prefilter finds fastest): a secret's key in one cell
    # and its value in the next ("│ password │ VALUE │"), a value wrapped inside a panel (boxes.py). An
    # alternation, not a class: the prefilter matches bytes, and each of these is three.
    pats.append(Pattern("(?:" + "|".join(BORDERS) + ")", G_ANSI))
    # a table drawn in ASCII, a key's cell then its value's ("| password | VALUE |")
    pats.append(Pattern(r"\|[ \t]+[A-Za-z0-9_.\-]*(?i:pass|secret|token|key|auth|cred|sk|ak)[A-Za-z0-9_.\-]*"
                        r"[ \t]+\|[ \t]+[^\s|]", G_ANSI))
    pats.append(Pattern(r"\\u00[0-7][0-9A-Fa-f]", G_JSONESC))
    b64: set[str] = set()
    for word in (
        BASE64_PREFIXES + _B64_WORDS + tuple(w.upper() for w in _B64_WORDS) + tuple(w.capitalize() for w in _B64_WORDS)
    ):
        b64.update(base64_forms(word))
    pats.extend(Pattern(_lit(form), G_B64) for form in sorted(b64) if len(form) >= 4)
    return pats


def build(known_forms: Sequence[str]) -> list[Pattern]:
    pats: list[Pattern] = []
    for group, rule in enumerate(TOKEN_RULES):
        pats.extend(Pattern(_lit(p), group, caseless=rule.caseless) for p in rule.prefixes)
        if rule.prefilter is not None:
            pats.append(Pattern(rule.prefilter, group, caseless=rule.caseless))
    pats.extend(_tool_patterns())
    pats.extend(Pattern(_lit(word), G_CJK) for word in CJK_KEYS)
    pats.append(Pattern(r"[A-Za-z0-9_][ \t]*(?:：|＝)", G_CJK))  # an ASCII key, a full-width separator
    # A Kubernetes Secret: its kind, and a data:/stringData: key (literals: cheap to look for, rare in logs).
    # A secret's key ending its line (value on the next one) is a G_STRUCT candidate already.
    for word in ("kind: Secret", 'kind: "Secret"', '"kind":"Secret"', '"kind": "Secret"', 'kind\\":\\"Secret'):
        pats.append(Pattern(_lit(word), G_KSECRET))
    for word in ("data:", '"data":', "stringData"):
        pats.append(Pattern(_lit(word), G_KSECRET))
    for marker in HOOK_MARKERS:
        pats.append(Pattern(_lit(marker), G_URL, caseless=True))
    pats.append(Pattern(r"://[A-Za-z0-9_\-.~%]{16,}@", G_URL))
    # URL-encoded commands and text (a blank, an encoded URL, CJK, AK:SK): only their decoded view can say
    for word in ("%20", "%2520", "%3A%2F%2F", "%253A%252F%252F"):
        pats.append(Pattern(_lit(word), G_URLENC, caseless=True))
    pats.append(Pattern(_lit("%3A"), G_URLENC, caseless=True))
    pats.append(Pattern(r"%[eE][4-9]%[89abAB]", G_URLENC))
    pats.extend(_key_patterns())
    for word in ("bearer", "hmac-sha", "mysql", "mariadb", "sshpass", "redis-cli"):
        pats.append(Pattern(_lit(word), G_CMD, caseless=True))
    pats.append(Pattern(r"(?:curl|wget|http)[^\n]*(?:-u|--user)", G_CMD))
    pats.append(Pattern(r"login[^\n]*[ \t]-p", G_CMD))
    pats.append(Pattern(r"(?:OBS|AWS|OSS)[ \t]+[A-Za-z0-9]{12}", G_CMD))
    params = "|".join(_lit(p) for p in sorted(SIGNING_PARAMS + TOKEN_PARAMS))
    pats.append(Pattern(rf"(?:[?&;#]|%26|%3f)(?:{params})(?:=|%3d)", G_URL, caseless=True))
    pats.append(Pattern(r"://[^\s/@]*:", G_URL))
    pats.append(Pattern(r"%3a%2f%2f[^\s/@%]*%3a", G_URL, caseless=True))
    pats.append(Pattern(r"BEGIN[ A-Z0-9]*PRIVATE KEY", G_PEM))
    pats.extend(_encoded_patterns())
    pats.extend(Pattern(_lit(form), G_KNOWN, cacheable=False) for form in known_forms)
    return pats
