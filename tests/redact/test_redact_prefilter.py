"""The prefilter is sound: whatever the key-aware layer would mask, the prefilter makes a candidate.

The prefilter's key patterns leave out keys whose last word ``classify`` rejects, and its veto drops
keys ``classify`` rejects and weak keys whose value cannot look secret. Both are precision
optimisations; these tests check them against the layer they stand in for, on generated keys in
every case style and separator, so a drift between the two shows up as a failing example.
"""

from __future__ import annotations

import itertools
import json
import random
import string
from urllib.parse import quote

import pytest

from bot.redact import Redactor
from bot.redact.catalog import G_STRUCT, G_WEAKKEY
from bot.redact.keynames import LAST_WORD_REJECTS, ML_WORDS, PLAIN_KEYS, classify
from bot.redact.structure import KEY_WORDS, scan_line

REDACTOR = Redactor()
FALLBACK = Redactor(use_hyperscan=False)  # no prefilter precision: every line with a key word is checked
pytestmark = pytest.mark.skipif(not REDACTOR.accelerated, reason="checks the Hyperscan patterns")

_WORDS = sorted(
    set(KEY_WORDS)
    | LAST_WORD_REJECTS
    | ML_WORDS
    | PLAIN_KEYS
    | {"password", "passwd", "pw", "api", "access", "secret", "private", "client", "data", "keyid", "id", "Id"}
    | {"aws", "hf", "wandb", "pad", "eos", "max", "new", "cache", "error", "value", "signing", "tls", "x", "2"}
    | {"authorization", "cookie", "session", "security", "credential", "creds", "sig", "signature", "token"}
)


def _case(word: str, style: int) -> str:
    return [word.lower(), word.upper(), word.capitalize(), word.swapcase(), word][style]


def _key(rng: random.Random) -> str:
    count = rng.randrange(5)
    words = [rng.choice(_WORDS) if rng.randrange(2) else _letters(rng, 1, 4) for _ in range(count)]
    words.insert(rng.randrange(len(words) + 1), rng.choice(KEY_WORDS))
    parts = [_case(w, rng.randrange(5)) for w in words]
    out = parts[0]
    for part in parts[1:]:
        out += rng.choice(["_", ".", "-", "", "__"]) + part
    return out


def _letters(rng: random.Random, low: int, high: int, alphabet: str = string.ascii_letters) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))


_SAMPLE_VALUES = ["Abc123XyzQ9", "train/loss", "abcdefgh", "s3cr3tPa55", "x", "0123456789ab", "None"]
_VALUE_CHARS = string.ascii_letters + string.digits + "/+=_-."


def _value(rng: random.Random) -> str:
    return rng.choice(_SAMPLE_VALUES) if rng.randrange(2) else _letters(rng, 1, 30, _VALUE_CHARS)


_SHAPES = ("{k}={v}", "{k}: {v}", '"{k}": "{v}"', "export {k}='{v}'", '\\"{k}\\":\\"{v}\\"', "--{k} {v}", "-{k} {v}")
# Lines per test below, drawn from a generator seeded by the test's name: the same lines every run.
EXAMPLES = 1000


def test_every_key_the_structure_layer_masks_is_a_candidate() -> None:
    rng = random.Random("structure-candidates")
    masked = 0
    for _ in range(EXAMPLES):
        before = rng.choice(["", "x ", "a,", "  - "])
        line = before + rng.choice(_SHAPES).format(k=_key(rng), v=_value(rng)) + " rest"
        if scan_line(line, keys=True, shapes=False):
            masked += 1
            ids = REDACTOR._pre.ids(line)
            assert ids is not None and {G_STRUCT, G_WEAKKEY} & ids, f"prefilter missed {line!r}"
            assert REDACTOR._pre.lines(line.encode()), f"no candidate line for {line!r}"
    assert masked >= EXAMPLES // 10, f"only {masked} of {EXAMPLES} lines are masked: too few to say anything"


_KEY_LAST = ["cache", "sort", "full", "config", "lookup", "api", "wandb", "pw", "access", "private", "signing"]
_KEY_LAST += ["encryption", "master", "account", "client", "tls", "ssl", "my_api", "x.private.ssh", "ssh", "rsa"]


_KEY_VALUES = ["Abc123XyzQ9", "train/loss", "abcdefgh", "x", "a1", "0123456789abcdef01234567", "密钥值"]


@pytest.mark.parametrize("before", _KEY_LAST)
def test_a_last_key_segment_is_a_candidate_when_masked(before: str) -> None:
    """``..._key``: strong after some words (any value), weak otherwise (a value that can look secret).
    Every separator, spelling, value and shape for one word in one test (8,000 tiny cases cost more in test
    overhead than in checking); the message lists every line the prefilter missed."""
    missed: list[str] = []
    for sep, key, value, shape in itertools.product(["_", ".", "-", "__"], ["key", "KEY", "Key"], _KEY_VALUES,
                                                    _SHAPES[:5]):
        line = shape.format(k=before + sep + key, v=value) + " rest"
        if scan_line(line, keys=True, shapes=False):
            ids = REDACTOR._pre.ids(line)
            if ids is None or not {G_STRUCT, G_WEAKKEY} & ids:
                missed.append(line)
    assert not missed, f"prefilter missed {len(missed)} masked line(s), e.g. {missed[:5]!r}"


_ENCODED = (
    "{k}%3D{v}",
    "%22{k}%22%3A%22{v}%22",
    '{{\\"{k}\\": \\"{v}\\"}}',
    "\x1b[1m{k}\x1b[0m={v}",
    "{k}\x1b[0m: {v}",
    "{k}\\u003d{v}",
    "\x1b[1;32m{k}={v}",
    "--\x1b[1m{k} {v}",
)


def test_precise_prefilter_redacts_like_the_fallback() -> None:
    rng = random.Random("encoded-keys")
    for _ in range(EXAMPLES):
        before = rng.choice(["", "q=", "x "])
        line = before + rng.choice(_SHAPES + _ENCODED).format(k=_key(rng), v=_value(rng)) + " rest"
        assert REDACTOR.redact(line).text == FALLBACK.redact(line).text, line


def test_rejected_last_words_are_rejected_by_classify() -> None:
    for word in LAST_WORD_REJECTS:
        for key in (f"secret_{word}", f"SECRET_{word.upper()}", f"secret.{word.capitalize()}", f"token-{word}"):
            assert classify(key) is None or key.lower().replace("-", "_").endswith("key_id"), key
    for word in PLAIN_KEYS:
        for key in (word, word.lower(), word.upper(), word.capitalize()):
            assert classify(key) is None, key
    for word in ML_WORDS:
        for key in (f"{word}_token", f"{word.upper()}_TOKEN", f"{word.capitalize()}.Token", f"x-{word}-token"):
            assert classify(key) is None, key


@pytest.mark.parametrize(
    "line",
    [
        "generated 64 tokens, max_new_tokens=2048, pad_token_id=151643, eos_token_id=151645",
        '{"msg": "checkpoint saved", "cache_key": "train/loss"}',
        "special tokens: bos_token=None, pad_token='<|endoftext|>'",
        "in run_step KeyError: 'advantages'",
        "authentication required (key_path=/etc/rlark/keys, token_ttl=3600)",
        "python train.py --max-new-tokens 512 --tokenizer-path /mnt/tok",
    ],
)
def test_ordinary_key_shapes_are_not_candidates(line: str) -> None:
    assert REDACTOR._pre.lines(line.encode()) == []


_PIECES = (
    [
        *("name: ", "value: ", "- name: DB_PASSWORD", "\n", "  value: s3cr3tPa55word", '\\"', "\x1b[0m"),
        *("\x1b[1;31m", " ", "=", ":", '"', "'", "-", "--", "Bearer ", "Authorization: ", "https://", "user:"),
        *("@", "?sig=", "&token=", "X-Amz-Signature=", "Abc123XyzQ9kLmN", "train/loss", "ghp_" + "a" * 36, "\\n"),
        *("\\u0022", "mysql -p", "--password ", "token", "key", "KEY", "secret", "pass", "auth", "sk", "ak"),
        *("session", "cookie", "sig", "cred", "pwd", "_", ".", "x", "pad", "id", "name", "{", "}", ",", "export "),
    ]
)


def test_precise_prefilter_agrees_with_the_fallback_on_mixed_text() -> None:
    """One layer of URL or JSON encoding over shuffled key, header, URL and escape fragments."""
    rng = random.Random("mixed-text")
    for _ in range(EXAMPLES):
        line = "".join(rng.choice(_PIECES) for _ in range(rng.randrange(15)))
        encoding = rng.choice(["raw", "url", "json"])
        if encoding == "url":
            line = "q=" + quote(line, safe="")
        elif encoding == "json":
            line = json.dumps({"log": line})
        assert REDACTOR.redact(line).text == FALLBACK.redact(line).text, line


def test_pieces_map_offsets_back_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prefilter works on pieces of the text cut at line ends; masks land where they would in one piece."""
    lines = []
    for i in range(400):
        lines.append(f"训练步数 {i} █ loss=0.{i:03d}" if i % 3 else f"step {i} ok")
        if i % 7 == 0:
            lines.append(f"  export GITHUB_TOKEN=ghp_{'aB3' * 12}  # 密钥 {i}")
        if i % 11 == 0:
            lines.append(f'{{"msg": "é", "password": "Pw{i:04d}xyzzy"}}')
    text = "\n".join(lines)
    whole = REDACTOR.redact(text).text
    monkeypatch.setattr("bot.redact.redactor.CHUNK", 97)
    assert REDACTOR.redact(text).text == whole
    assert whole == "\n".join(REDACTOR.redact(line).text for line in lines)
    assert "ghp_" + "aB3" * 12 not in whole and "xyzzy" not in whole


# An AWS Bedrock key is "ABSK" and base64 of "BedrockAPIKey-...": its decoding holds a generic API key, which the
# fallback (every detector on every line) also finds. The key's own shape names it, on both paths.
_BEDROCK = (
    "ABSKQmVkcm9ja0FQSUtleSs9pdJCENoPXRmTm3300knDR8G5zxv1TPMBzKYUC2j0m0FQVI5OT/"
    "fJnAQAXcO/lXxtSK1nilfgaGJ/Xj1iGPZoP2I3htz35uQ7MwiQ/86Ht9tE"
)


@pytest.mark.parametrize("line", [f"use {_BEDROCK} now", f'{{"name": "AWS_BEDROCK_CRED", "value": "{_BEDROCK}"}}'])
def test_a_token_named_by_its_shape_keeps_that_kind_over_its_decoding(line: str) -> None:
    for redactor in (REDACTOR, FALLBACK):
        out = redactor.redact(line)
        assert _BEDROCK not in out.text
        assert "[REDACTED:aws-bedrock-key]" in out.text and "[REDACTED:api-key]" not in out.text
