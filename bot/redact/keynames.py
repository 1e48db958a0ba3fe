"""Which key names hold secrets, and what to call the value.

A *strong* key (``password``, ``*_TOKEN``, ``*_SECRET``, ``api_key`` ...) has its value masked whatever
it looks like: fail closed. A *weak* key (a bare ``key``, ``auth``) only when the value itself looks
like a credential, so ``key: train/loss`` stays readable.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.redact.later import later

_SPLIT = later(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")

# Words that, as the last word of a key, say the value is metadata about a secret, not the secret.
_META_LAST = frozenset(
    [
        "id",
        "ids",
        "name",
        "names",
        "file",
        "files",
        "path",
        "paths",
        "dir",
        "ref",
        "refs",
        "type",
        "types",
        "len",
        "length",
        "count",
        "size",
        "num",
        "limit",
        "mode",
        "enabled",
        "enable",
        "disabled",
        "required",
        "expiry",
        "expires",
        "expiration",
        "expired",
        "ttl",
        "timeout",
        "version",
        "format",
        "method",
        "header",
        "field",
        "prefix",
        "suffix",
        "policy",
        "min",
        "max",
        "env",
        "var",
        "source",
        "kind",
        "provider",
        "endpoint",
        "host",
        "hosts",
        "region",
        "bucket",
        "uri",
        "url",
        "urls",
        "location",
        "loc",
        "mount",
        "namespace",
        "label",
        "labels",
        "selector",
        "selectors",
        "key_ref",
        "keyref",
        "from",
        "usage",
        "used",
        "total",
        "rate",
        "count_s",
        "lifetime",
        "store",
        "stores",
        "hint",
        "hints",
        "algorithm",
        "algo",
        "strategy",
        "class",
        "index",
        "idx",
        "dim",
        "dims",
        "budget",
        "budgets",
        "interval",
        "secs",
        "seconds",
        "ms",
        "stdin",
        "helper",
        "prompt",
        "cmd",
        "command",
        "secrets",
        "status",
        "scope",
        "scopes",
        "audience",
        "issuer",
    ]
)
# ML vocabulary: pad_token, eos_token_id, max_tokens ... are not credentials.
_ML_TOKEN_WORDS = frozenset(
    [
        "pad",
        "eos",
        "bos",
        "unk",
        "sep",
        "cls",
        "mask",
        "special",
        "vocab",
        "max",
        "min",
        "num",
        "total",
        "prompt",
        "completion",
        "input",
        "output",
        "generated",
        "gen",
        "new",
        "per",
        "image",
        "start",
        "end",
        "stop",
        "added",
        "tokens",
        "tokenizer",
        "tokenizers",
    ]
)
# Last words that make ``classify`` reject a key and are common in logs; the prefilter leaves such
# keys out of its patterns (``pad_token_id=``, ``key_path=``, ``max_new_tokens=``). A subset: a key
# ending in another rejected word is merely a candidate that the prefilter's veto drops.
LAST_WORD_REJECTS = frozenset(
    [
        *("id", "ids", "name", "path", "file", "dir", "type", "len", "length", "count", "size", "num", "ttl"),
        *("timeout", "version", "format", "mode", "enabled", "expiry", "expires", "header", "prefix", "limit"),
        *("env", "url", "uri", "host", "region", "bucket", "endpoint", "provider", "source", "kind", "index"),
        *("ref", "keyref", "used", "rate", "total", "interval", "seconds", "ms", "dim", "max", "min"),
        *("tokens", "tokenizer", "tokenize", "tokenized"),
    ]
)
# Whole keys that hold a key word yet name no secret, common in logs and prose (``KeyError:``,
# ``Skipped:``); classify rejects each (tests check), so the prefilter leaves them out as whole keys.
PLAIN_KEYS = frozenset(
    [
        *("KeyError", "KeyboardInterrupt", "keyboard", "keys", "keyword", "keywords", "keyring", "keyframe"),
        *("session", "sessions", "signal", "signals", "sigterm", "sigkill", "sigint", "sighup", "sigma"),
        *("author", "authors", "authentication", "authenticated", "authorized", "authority"),
        *("passed", "passes", "passing", "passthrough", "skip", "skipped", "skipping", "skips", "credits"),
    ]
)
ML_WORDS = _ML_TOKEN_WORDS
# Words of training and inference settings (Hydra/OmegaConf keys): ``token_level_loss``, ``secret_batch``,
# ``tensor_parallel_size``. A key with one of them and a number or a short plain word as its value is a
# setting, even when it also holds a key word (see structure.is_setting).
SETTING_WORDS = frozenset(
    [
        *("size", "sizes", "length", "len", "batch", "batches", "parallel", "level", "levels", "loss", "losses"),
        *("lr", "coef", "coeff", "clip", "kl", "ratio", "step", "steps", "weight", "weights", "scale", "temperature"),
        *("penalty", "warmup", "chunk", "chunks", "epoch", "epochs", "dim", "dims", "heads", "layers", "dropout"),
        *("decay", "threshold", "factor", "budget", "topk", "topp", "micro", "mini", "gpu", "gpus", "reward"),
        *("window", "stride", "capacity", "utilization", "entropy", "mean", "agg", "norm", "bonus", "frac"),
    ]
)
# Session cookies by their usual names: the value is a logged-in session.
_COOKIE_KEYS = frozenset(["sessionid", "jsessionid", "phpsessid", "sessid", "connectsid", "gitlabsession", "sid"])
_PASSWORD_WORDS = frozenset(["password", "passwd", "pwd", "pass", "passphrase", "pw", "passwort"])


@dataclass(frozen=True)
class KeyClass:
    kind: str
    strong: bool


@lru_cache(maxsize=4096)
def classify(key: str) -> KeyClass | None:
    """The kind of secret a key names, or ``None`` for an ordinary key."""
    words = [w.lower() for w in _SPLIT.split(key) if w]
    if not words:
        return None
    joined = "".join(words)
    last = words[-1]
    if joined in {"clientkeydata", "clientkey", "tlskey", "sslkey"}:
        return KeyClass("private-key", True)
    if joined in {"clientcertificatedata"}:
        return KeyClass("client-certificate", True)
    if last in _META_LAST and not joined.endswith(("accesskeyid", "keyid")):
        return None
    if "token" in words and _ML_TOKEN_WORDS.intersection(words):
        return None
    if "tokens" in words or "tokenizer" in words or last in {"tokenize", "tokenized"}:
        return None
    if "pass" in words and words.index("pass") + 1 < len(words) and words[words.index("pass") + 1] in {"at", "k"}:
        return None  # pass@k metrics: eval/pass_at_1
    if joined in _COOKIE_KEYS:
        return KeyClass("cookie", True)
    if "appcode" in joined or joined.endswith(("artapi", "apitoken", "accesstoken")):
        return KeyClass("api-key" if "appcode" in joined or joined.endswith("artapi") else "token", True)
    vendor = _vendor(words, joined)
    if _PASSWORD_WORDS.intersection(words) or joined.endswith(("password", "passwd")):
        return KeyClass("password", True)
    if "sk" in words or ("secret" in joined and "key" in joined) or joined.endswith("secretaccesskey"):
        if vendor == "huawei" or "sk" in words:
            return KeyClass("huawei-sk", True)
        return KeyClass(f"{vendor}-secret-key" if vendor else "secret-key", True)
    if "ak" in words or joined.endswith(("accesskeyid", "accesskey", "keyid")):
        if (vendor in {"huawei", ""} and "ak" in words) or vendor == "huawei":
            return KeyClass("huawei-ak", True)
        return KeyClass(f"{vendor or 'cloud'}-access-key-id", True)
    if ("session" in words and "token" in words) or ("security" in words and "token" in words):
        return KeyClass(f"{vendor}-session-token" if vendor else "security-token", True)
    if vendor in {"wandb"} and ("key" in words or "apikey" in words):
        return KeyClass("wandb-api-key", True)
    if "secret" in joined:
        return KeyClass("secret", True)
    if "token" in joined:
        return KeyClass(f"{vendor}-token" if vendor else "token", True)
    if "apikey" in joined or ("api" in words and "key" in words):
        return KeyClass(f"{vendor}-api-key" if vendor else "api-key", True)
    if "privatekey" in joined or ("private" in words and "key" in words):
        return KeyClass("private-key", True)
    if "credential" in joined or "creds" in words or "cred" in words:
        return KeyClass("credential", True)
    if last in {"cookie", "cookies"} or joined == "setcookie":
        return KeyClass("cookie", True)
    if joined in {"auth", "authorization", "proxyauthorization"} or last in {"auth", "authorization"}:
        return KeyClass("auth", False)
    if last == "key" or joined.endswith(("signingkey", "encryptionkey", "masterkey", "accountkey")):
        return KeyClass("secret-key", joined.endswith(("signingkey", "encryptionkey", "masterkey", "accountkey")))
    if last in {"signature", "sig"}:
        return KeyClass("signature", False)
    return None


def _vendor(words: list[str], joined: str) -> str:
    if "aws" in words or joined.startswith("amz"):
        return "aws"
    if {"huawei", "huaweicloud", "hw", "hwc", "obs", "swr", "iam"}.intersection(words) or "huawei" in joined:
        return "huawei"
    if {"alibaba", "aliyun", "ali", "alicloud", "oss"}.intersection(words):
        return "alibaba"
    if "wandb" in words:
        return "wandb"
    if {"hf", "huggingface", "hugging"}.intersection(words):
        return "huggingface"
    if {"github", "gh", "ghcr"}.intersection(words):
        return "github"
    if "gitlab" in words:
        return "gitlab"
    if "slack" in words:
        return "slack"
    if "openai" in words:
        return "openai"
    if "npm" in words:
        return "npm"
    if {"pypi", "twine"}.intersection(words):
        return "pypi"
    return ""
