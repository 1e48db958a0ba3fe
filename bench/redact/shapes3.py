"""The third round's credential shapes: where a value is named only by its place next to another line, a format
string, a box border, a colour code or its pair's other half. Many spellings per family, as in ecosystem.py (which
adds these families to its own); each generator returns (lines, values that must not survive)."""

from __future__ import annotations

import random
import string
from collections.abc import Callable

ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
PW_CHARS = ALNUM + "!#%^*_+.@-"
E = "\x1b"

Record = tuple[list[str], list[str]]


def _s(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _mixed(rng: random.Random, alphabet: str, n: int) -> str:
    while True:
        v = _s(rng, alphabet, n)
        if any(c.isupper() for c in v) and any(c.islower() for c in v) and any(c.isdigit() for c in v):
            return v


def _pw(rng: random.Random) -> str:
    return rng.choice(string.ascii_letters) + _mixed(rng, PW_CHARS.replace("%", ""), rng.randint(10, 18))


def _ak(rng: random.Random) -> str:
    while True:
        v = _s(rng, UPPER, 20)
        if any(c.isdigit() for c in v) and any(c.isalpha() for c in v):
            return v


def _secret(rng: random.Random) -> str:
    return rng.choice(
        [_pw(rng), _mixed(rng, ALNUM, 40), "ghp_" + _mixed(rng, ALNUM, 36), "hf_" + _mixed(rng, ALNUM, 34)]
    )


_LOGIN = (
    "docker login -u ci --password-stdin swr.cn-north-4.myhuaweicloud.com",
    "docker login --username=cn-north-4@robot --password-stdin",
    "podman login -u ci --password-stdin quay.io",
    "nerdctl login --password-stdin -u admin harbor.rlark.internal",
    "helm registry login ghcr.io -u x-access-token --password-stdin",
    "skopeo login --username ci --password-stdin registry.example.com",
    "gh auth login --with-token",
    "oras login -u ci --password-stdin ascendhub.huawei.com",
)


def stdin_echo(rng: random.Random) -> Record:
    """``echo "$PW" | docker login --password-stdin`` traced by ``set -x`` (either side first), or the value
    logged alone on the line before."""
    v = _pw(rng) if rng.random() < 0.6 else _secret(rng)
    login = "+ " + rng.choice(_LOGIN)
    quoted = rng.choice([v, f"'{v}'", f'"{v}"'])
    echo = rng.choice(
        [f"+ echo {quoted}", f"+ echo -n {quoted}", f"+ printf %s {quoted}", f"+ printf '%s\\n' {quoted}"]
    )
    shapes = [
        [echo, login],
        [login, echo],
        ["++ cat /run/secrets/registry-password", echo, login],
        [v, login[2:]],
        [f"'{v}'", login[2:]],
        [echo, login, "WARNING! Your password will be stored unencrypted in /root/.docker/config.json.",
         "Login Succeeded"],
    ]
    return rng.choice(shapes), [v]


def printf_positional(rng: random.Random) -> Record:
    """``printf`` whose format names the credential and whose arguments carry it."""
    v, user, host = _secret(rng), rng.choice(["ci", "robot", "x-access-token", "oauth2"]), rng.choice(
        ["git.example.com", "github.com", "obs.cn-north-4.myhuaweicloud.com", "art.rlark.internal"]
    )
    ak = _ak(rng)
    q = rng.choice(["", "'", '"'])
    arg = f"{q}{v}{q}"
    shapes: list[Record] = [
        ([f"printf 'machine %s login %s password %s\\n' {host} {user} {arg} > ~/.netrc"], [v]),
        ([f"+ printf 'machine %s login %s password %s' {host} {user} {arg}"], [v]),
        ([f'printf "machine %s\\nlogin %s\\npassword %s\\n" {host} {user} {arg} >> $HOME/.netrc'], [v]),
        ([f"printf -v NETRC 'machine %s login %s password %s' {host} {user} {arg}"], [v]),
        ([f"printf '%s:%s' {user} {arg} | base64 -w0"], [v]),
        ([f"printf '%s:%s\\n' {ak} {arg} > /etc/passwd-s3fs"], [ak, v]),
        ([f"printf 'password=%s\\n' {arg} >> .env"], [v]),
        ([f"printf '{{\"token\": \"%s\"}}' {arg} > /tmp/auth.json"], [v]),
        ([f"printf 'Authorization: Bearer %s\\n' {arg}"], [v]),
        ([f"printf 'machine %s login %s password %s\\n' {host} {user} {arg} h2.example.com u2 {arg}x"], [v]),
        ([f"printf -- '--password=%-12s\\n' {arg}"], [v]),
    ]
    return rng.choice(shapes)


_ENV_NAMES = (
    "DB_PASSWORD", "HF_TOKEN", "WANDB_API_KEY", "OBS_SK", "MINIO_SECRET_KEY", "REGISTRY_PASSWORD", "GITHUB_TOKEN",
    "HUAWEICLOUD_SDK_SK", "OPENAI_API_KEY", "REDIS_PASSWORD",
)
_ENV_PREFIXES = (
    lambda r, i: f"2026-03-01T12:00:0{i}.12{r.randint(0, 9)}Z stdout F ",
    lambda r, i: f"[pod/ppo-franka-0412-actor-{r.randint(0, 15)}] ",
    lambda r, i: f"[2026-03-01 12:00:0{i},{r.randint(100, 999)}][INFO] ",
    lambda r, i: "worker-1  | ",
    lambda r, i: "| ",
    lambda r, i: f"2026-03-01T12:00:0{i}Z ",
    lambda r, i: f"(RolloutWorker pid={r.randint(100, 9999)}) ",
)


def env_after_name(rng: random.Random) -> Record:
    """A Kubernetes env entry's ``value:`` on the line after its ``name:``, behind a log prefix per line."""
    v = _secret(rng)
    name = rng.choice(_ENV_NAMES)
    prefix = rng.choice(_ENV_PREFIXES)
    indent = " " * rng.choice([0, 2, 4, 6])
    value = rng.choice([v, f'"{v}"', f"'{v}'"])
    first = rng.choice([f"{indent}- name: {name}", f"{indent}- name: \"{name}\"", f"{indent}  name: {name}"])
    lines = [first, f"{indent}  value: {value}"]
    return [prefix(rng, i) + line for i, line in enumerate(lines)], [v]


def box_panel(rng: random.Random) -> Record:
    """rich/textual panels: a value between borders, in a table's next cell, or wrapped onto the next row."""
    v = _secret(rng)
    key = rng.choice(["token", "password", "api_key", "secret", "hf_token", "access_token"])
    b = rng.choice(["│", "┃", "║"])
    pad = " " * rng.randint(1, 12)
    w = rng.choice([_mixed(rng, ALNUM, 40), "ghp_" + _mixed(rng, ALNUM, 36), "hf_" + _mixed(rng, ALNUM, 34)])
    cut = rng.randint(12, len(w) - 8)  # a long value, wrapped onto the next row of the panel
    shapes: list[Record] = [
        ([f"{b} {key} = '{v}'{pad}{b}"], [v]),
        ([f"{b} {b}   {key} = '{v}'{pad}{b} {b}"], [v]),
        ([f"{b} {key} {b} {v}{pad}{b}"], [v]),
        ([f"{b}{pad}{key}{pad}{b} {v} {b}"], [v]),
        ([f"{b} {b} {key} = '{w[:cut]}{pad}{b} {b}", f"{b} {b} {w[cut:]}'{pad}{b} {b}"], [w[:cut], w[cut:]]),
        ([f"{b} {b}   {key} = ('{w[:cut]}'{pad}{b} {b}", f"{b} {b}            '{w[cut:]}'){pad}{b} {b}"],
         [w[:cut], w[cut:]]),
        ([f"{b} {b} credentials = {{'user': 'ci', '{key}': '{v}'}}{pad}{b} {b}"], [v]),
    ]
    return rng.choice(shapes)


def _c(rng: random.Random) -> str:
    return f"{E}[{rng.choice(['0', '1', '32', '33', '1;31', '38;5;208', '39', '2'])}m"


def ansi_dict(rng: random.Random) -> Record:
    """A dict printed in colour: escape codes between the key, its quotes, the separator and the value."""
    v = _secret(rng)
    key = rng.choice(["password", "token", "api_key", "secret_key", "client_secret", "HF_TOKEN"])
    q = rng.choice(["'", '"'])
    shapes = [
        f"{{{_c(rng)}{q}{key}{q}{_c(rng)}: {_c(rng)}{q}{v}{q}{_c(rng)}}}",
        f"{{{q}{key}{q}{_c(rng)}: {q}{_c(rng)}{v}{_c(rng)}{q}}}",
        f"{_c(rng)}{{{_c(rng)}{_c(rng)}{q}{key}{q}{_c(rng)}:{_c(rng)} {q}{v}{q}{_c(rng)}{_c(rng)}}}{_c(rng)}",
        f"{{{q}user{q}: {q}ci{q}, {_c(rng)}{q}{key}{q}{_c(rng)}: {_c(rng)}{q}{v}{q}{_c(rng)}}}",
        f"{q}{key}{q}{_c(rng)}{_c(rng)}: {_c(rng)}{q}{v}{q}",
    ]
    return [rng.choice(shapes)], [v]


def id_beside_secret(rng: random.Random) -> Record:
    """An access key's ID left beside its secret, which is masked (by us, or in the log already)."""
    ak, sk = _ak(rng), _mixed(rng, ALNUM + "/+", 40)
    aws = "AKIA" + _s(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
    cid = _mixed(rng, ALNUM, rng.randint(16, 32))
    mask = rng.choice(["***", "******", "[REDACTED]"])
    shapes: list[Record] = [
        ([f"{aws} / {sk}"], [aws, sk]),
        ([f"AK/SK: {ak}/{sk}"], [ak, sk]),
        ([f"ak / sk = {ak} / {sk}"], [ak, sk]),
        ([f"MINIO_ROOT_USER={ak} MINIO_ROOT_PASSWORD={sk}"], [ak, sk]),
        ([f"client_id={cid} client_secret={mask}"], [cid]),
        ([f"--client-id {cid} --client-secret {sk}"], [cid, sk]),
        ([f"appid={cid} app_secret={sk}"], [cid, sk]),
        ([f"OBS_ACCESS_KEY_ID={ak} OBS_SECRET_ACCESS_KEY={mask}"], [ak]),
        ([f"access_key_id: {ak}, secret_access_key: {mask}"], [ak]),
    ]
    return rng.choice(shapes)


_KLOG = (
    lambda r, i: f"I0301 12:00:0{i}.{r.randint(100000, 999999)} 1 pod.go:{r.randint(10, 999)}] ",
    lambda r, i: f"{E}[32m2026-03-01T12:00:0{i}Z{E}[0m ",
    lambda r, i: f"{E}[2m[pod/actor-{r.randint(0, 7)}]{E}[0m ",
)


def more_spellings(rng: random.Random) -> Record:
    """Further spellings of the same shapes: a here-string or an echo of a plain word before a stdin login, a file
    read from /dev/stdin, a .netrc written one printf argument per line, an env value behind klog's or a coloured
    prefix, as a block scalar or in a flow mapping, and a table drawn in ASCII."""
    v = _secret(rng)
    name = rng.choice(_ENV_NAMES)
    key = rng.choice(["password", "token", "api_key", "secret_key", "hf_token"])
    login = "+ " + rng.choice(_LOGIN)
    q = rng.choice(["", "'", '"'])
    prefix = rng.choice(_KLOG)
    indent = " " * rng.choice([0, 2, 4])
    shapes: list[list[str]] = [
        [f"+ cat <<< {q}{v}{q}", login],
        [f"+ echo {q}{v}{q}", "+ echo '::group::Log in to the registry'", login],
        [f"+ echo {q}{v}{q}", "+ kubectl create secret generic ci-pw --dry-run=client --from-file=pw=/dev/stdin"],
        [f"printf '%s\\n' 'machine git.example.com' 'login ci' 'password {v}' > ~/.netrc"],
        [f"+ printf '%s\\n' \"machine obs\" \"login ci\" \"password {v}\" >> $HOME/.netrc"],
        [prefix(rng, 0) + f"{indent}- name: {name}", prefix(rng, 1) + f"{indent}  value: {q}{v}{q}"],
        [prefix(rng, 0) + f"{indent}- name: {name}", prefix(rng, 1) + f"{indent}  value: " + rng.choice([">-", "|"]),
         prefix(rng, 2) + f"{indent}    {v}"],
        [f"{indent}- {{name: {name}, value: {q}{v}{q}}}"],
        [f"env: [{{name: LOG_LEVEL, value: info}}, {{name: {name}, value: {q}{v}{q}}}]"],
        ["+------------+------------------------------------------+", f"| {key} | {v} |",
         "+------------+------------------------------------------+"],
        [f"| {key.capitalize()} | `{v}` |"],
    ]
    return rng.choice(shapes), [v]


FAMILIES: dict[str, Callable[[random.Random], Record]] = {
    "stdin-echo": stdin_echo,
    "printf-positional": printf_positional,
    "env-after-name": env_after_name,
    "box-panel": box_panel,
    "ansi-dict": ansi_dict,
    "id-beside-secret": id_beside_secret,
    "more-spellings": more_spellings,
}
