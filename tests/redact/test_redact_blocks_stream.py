"""Multi-line secrets (PEM across line breaks) and streaming across chunk boundaries."""

from __future__ import annotations

import io
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.redact import Redactor, redact_stream

R = Redactor()
B64 = string.ascii_letters + string.digits + "+/"

pem_bodies = st.lists(st.text(alphabet=B64, min_size=40, max_size=64), min_size=3, max_size=12)
kinds = st.sampled_from(
    [
        "RSA PRIVATE KEY",
        "PRIVATE KEY",
        "EC PRIVATE KEY",
        "OPENSSH PRIVATE KEY",
        "ENCRYPTED PRIVATE KEY",
        "PGP PRIVATE KEY BLOCK",
    ]
)


def _pem(kind: str, body: list[str]) -> str:
    return "\n".join([f"-----BEGIN {kind}-----", *body, f"-----END {kind}-----"])


@settings(max_examples=25, deadline=None)
@given(body=pem_bodies, kind=kinds, before=st.text(alphabet=" .:#\t()", max_size=40), crlf=st.booleans())
def test_pem_across_lines_never_survives(body: list[str], kind: str, before: str, crlf: bool) -> None:
    nl = "\r\n" if crlf else "\n"
    text = before + nl + _pem(kind, body).replace("\n", nl) + nl + "Executing run script..." + nl
    out = R.redact(text)
    for line in body:
        assert line not in out.text
    assert f"-----BEGIN {kind}-----" in out.text and "Executing run script..." in out.text
    assert out.counts.get("private-key") == 1
    assert R.redact(out.text).counts == {}


@settings(max_examples=15, deadline=None)
@given(body=pem_bodies, kind=kinds)
def test_truncated_pem_fails_closed(body: list[str], kind: str) -> None:
    text = "ssh key:\n" + "\n".join([f"-----BEGIN {kind}-----", *body]) + "\n"
    out = R.redact(text).text
    assert all(line not in out for line in body)


def test_pem_body_in_json_and_base64() -> None:
    import base64
    import json

    body = ["MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7", "Qx9pZ2hlcnNlY3JldGtleW1hdGVyaWFsMTIzNDU2Nzg5MA=="]
    pem = _pem("PRIVATE KEY", body)
    for text in (json.dumps({"private_key": pem}), base64.b64encode(pem.encode()).decode()):
        out = R.redact(text).text
        assert all(b not in out for b in body), out


def _stream(text: str, chunk: int, redactor: Redactor = R) -> tuple[str, dict[str, int]]:
    dst = io.BytesIO()
    counts = redact_stream(io.BytesIO(text.encode()), dst, redactor, chunk_size=chunk)
    return dst.getvalue().decode(), dict(counts)


@settings(max_examples=40, deadline=None)
@given(
    chunk=st.integers(min_value=7, max_value=300),
    pad=st.integers(min_value=0, max_value=400),
    body=pem_bodies,
)
def test_stream_equals_whole_text_at_any_chunk_size(chunk: int, pad: int, body: list[str]) -> None:
    text = (
        "x" * pad + "\nstep 1 loss=0.3\n"
        "export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345\n"
        + _pem("RSA PRIVATE KEY", body)
        + "\n        - name: WANDB_API_KEY\n          value: 0123456789abcdef0123456789abcdef01234567\n"
        + "url https://b.obs.cn-north-4.myhuaweicloud.com/o?AccessKeyId=HPUA1234567890ABCDEF&Signature=abc%2B\n"
        + "password: |\n  correct horse battery staple\n  second line\ndone: 1\n"
    )
    whole = R.redact(text)
    streamed, counts = _stream(text, chunk)
    assert streamed == whole.text
    assert counts == dict(whole.counts)
    assert "ghp_0123456789" not in streamed and "0123456789abcdef0123" not in streamed
    assert all(line not in streamed for line in body)


def test_stream_long_line_without_newline_is_bounded_and_caught() -> None:
    token = "ghp_" + "a1B2" * 9
    text = ("word " * 50_000) + token + (" word" * 50_000)
    streamed, counts = _stream(text, 1024)
    assert token not in streamed and counts == {"github-token": 1}


def test_stream_passes_invalid_utf8_through() -> None:
    raw = b"\xff\xfe binary \x80 AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n\xc3\n"
    dst = io.BytesIO()
    redact_stream(io.BytesIO(raw), dst, R, chunk_size=16)
    out = dst.getvalue()
    assert out.startswith(b"\xff\xfe binary \x80 ") and b"wJalr" not in out and out.endswith(b"\xc3\n")


def test_prefix_releases_a_line_with_nothing_cut_at_its_end() -> None:
    # a candidate line that ends in a short word: no token can continue on the next line, so a stream
    # need not hold it back until that line arrives
    plain = "docker run --rm -u 1000:1000 img ok\n"
    assert R.redact_prefix(plain, final=False, pem_open=False) == (plain, {}, len(plain), False)
    # a token running to the line's end may go on in the next line: held until that line is in
    token = "export HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789\n"
    out, found, done, _ = R.redact_prefix(token, final=False, pem_open=False)
    assert (out, done, sum(found.values())) == ("", 0, 0)
    whole = R.redact(token + "# next step\n").text
    assert "hf_AbCd" not in whole and whole.endswith("]\n# next step\n")
