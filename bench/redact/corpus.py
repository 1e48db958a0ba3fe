"""A generated corpus of realistic RLark/Ray training and CI runner logs with planted credentials.

Deterministic (seeded). Clean lines mimic what the bot really reads: Ray wrapper markers, training
metrics, NCCL chatter, image pulls with digests, git SHAs, pod UIDs, container IDs, kubectl JSON,
GitHub Actions output with ANSI colours, Chinese messages, URLs without credentials. Planted lines
put every credential family in the contexts they occur in (env dumps, JSON, YAML, headers, signed
URLs, base64, multi-line PEM, Kubernetes env entries).
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from dataclasses import dataclass, field
from pathlib import Path

from bench.redact.ecosystem import FAMILIES as ECO_FAMILIES_MAP
from bench.redact.ecosystem import record as eco_record

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


@dataclass
class Corpus:
    lines: list[str] = field(default_factory=list)
    # planted[i] = (family, secret values that must not survive) for each planted record
    planted: list[tuple[str, list[str]]] = field(default_factory=list)
    secret_lines: set[int] = field(default_factory=set)  # line indexes holding planted material

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _s(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _uuid(rng: random.Random) -> str:
    h = _s(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _ts(rng: random.Random) -> str:
    return (
        f"2024-05-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z"
    )


def clean_line(rng: random.Random) -> str:
    r = rng.random()
    step = rng.randint(1, 50000)
    if r < 0.22:
        return (
            f"[{_ts(rng)}] step {step} | loss={rng.random():.4f} | reward={rng.uniform(-1, 1):.3f} | "
            f"kl={rng.random() / 10:.5f} | lr={rng.choice(['1e-5', '3e-6', '5e-7'])} | "
            f"tokens/s={rng.uniform(1000, 9000):.1f} | grad_norm={rng.random() * 3:.3f}"
        )
    if r < 0.30:
        return (
            f"(RolloutWorker pid={rng.randint(100, 99999)}, ip=10.{rng.randint(0, 255)}.{rng.randint(0, 255)}"
            f".{rng.randint(1, 254)}) generated {rng.randint(64, 4096)} tokens, max_new_tokens=2048, "
            f"pad_token_id=151643, eos_token_id=151645"
        )
    if r < 0.37:
        return (
            f"ppo-franka-0412-actor-{rng.randint(0, 15)}:{rng.randint(100, 999)}:{rng.randint(100, 999)} "
            f"[{rng.randint(0, 7)}] NCCL INFO Channel {rng.randint(0, 31):02d}/0 : "
            f"{rng.randint(0, 7)}[{rng.randint(0, 7)}] -> "
            f"{rng.randint(0, 7)}[{rng.randint(0, 7)}] via P2P/IPC/read"
        )
    if r < 0.42:
        img = rng.choice(["vllm-ascend", "rlinf-runtime", "ray-ml", "pytorch-npu"])
        return (
            f"{_ts(rng)} Normal Pulled pod/{img}-{rng.randint(0, 9)} Successfully pulled image "
            f'"swr.cn-southwest-2.myhuaweicloud.com/rlinf/{img}@sha256:{_s(rng, HEX, 64)}" in 3.2s'
        )
    if r < 0.46:
        return (
            f"HEAD is now at {_s(rng, HEX, 7)} Merge pull request #{rng.randint(1, 999)} from rlinf/fix-{step}; "
            f"commit {_s(rng, HEX, 40)}"
        )
    if r < 0.50:
        return (
            f'  "uid": "{_uuid(rng)}", "containerID": "containerd://{_s(rng, HEX, 64)}", '
            f'"restartCount": {rng.randint(0, 5)}'
        )
    if r < 0.54:
        return (
            f"\x1b[36;1m{_ts(rng)}\x1b[0m \x1b[32mRun\x1b[0m pip install -e .[dev] --extra-index-url "
            f"https://repo.huaweicloud.com/repository/pypi/simple"
        )
    if r < 0.58:
        return rng.choice(
            [
                "Executing prepare script...",
                "Ray cluster is ready. Printing cluster information:",
                f"Waiting for {rng.randint(2, 16)} nodes to join the Ray cluster...",
                f"Current node count: {rng.randint(1, 16)}",
                "Executing run script...",
                f"RLINF_NODE_RANK: {rng.randint(0, 15)}",
                "Connecting to Ray head at ppo-franka-0412-head-ray-head:6379...",
            ]
        )
    if r < 0.62:
        return rng.choice(
            [
                f"训练步数 {step}，平均奖励 {rng.random():.3f}，吞吐 {rng.randint(100, 900)} samples/s",
                f"警告：节点 npu-node-{rng.randint(1, 64)} 的磁盘使用率达到 {rng.randint(80, 99)}%",
                "镜像拉取成功，开始执行准备脚本",
            ]
        )
    if r < 0.66:
        return (
            f"Downloading https://obs.cn-north-4.myhuaweicloud.com/rlinf-ckpt/run-{step}/model-{rng.randint(0, 9)}"
            f".safetensors?versionId={_s(rng, ALNUM, 12)} -> /mnt/ckpt/model.safetensors "
            f"({rng.randint(1, 90)}%)"
        )
    if r < 0.70:
        return (
            f'{{"ts": "{_ts(rng)}", "level": "info", "msg": "checkpoint saved", "step": {step}, '
            f'"path": "/mnt/ckpt/global_step_{step}", "request_id": "{_uuid(rng)}", '
            f'"cache_key": "train/loss"}}'
        )
    if r < 0.73:
        return (
            f'Traceback (most recent call last):  File "/opt/rlinf/rlinf/runners/ppo.py", line '
            f"{rng.randint(10, 900)}, in run_step KeyError: 'advantages'"
        )
    if r < 0.76:
        return (
            f"wandb: Syncing run ppo-franka-{step} wandb: View run at https://wandb.ai/rlinf/franka/runs/"
            f"{_s(rng, string.ascii_lowercase + string.digits, 8)}"
        )
    if r < 0.79:
        return ["  - name: RAY_ADDRESS", "    value: ppo-franka-0412-head-ray-head:6379"][rng.randint(0, 1)]
    if r < 0.82:
        return (
            f"Epoch {rng.randint(0, 99)}: {rng.randint(0, 100)}%|{'█' * rng.randint(0, 20)}| "
            f"{rng.randint(0, 999)}/1000 [00:{rng.randint(10, 59)}<00:{rng.randint(10, 59)}, "
            f"{rng.uniform(1, 9):.2f}it/s]"
        )
    if r < 0.85:
        return (
            f"I0501 {rng.randint(10, 23)}:{rng.randint(10, 59)}:11.{rng.randint(100000, 999999)} "
            f"{rng.randint(1, 99)} gcs_server.cc:{rng.randint(10, 999)}: Node "
            f"{_s(rng, HEX, 56)} registered, address: 10.0.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
        )
    if r < 0.88:
        return (
            f"Warning  FailedScheduling  {rng.randint(1, 59)}m  default-scheduler  0/{rng.randint(3, 64)} nodes "
            f"are available: {rng.randint(1, 9)} Insufficient huawei.com/ascend-1980, "
            f"{rng.randint(1, 9)} node(s) didn't match Pod's node affinity/selector."
        )
    if r < 0.91:
        return (
            "Using tokenizer from /mnt/models/Qwen2.5-7B, vocab_size=152064, special tokens: "
            "bos_token=None, pad_token='<|endoftext|>'"
        )
    if r < 0.94:
        return (
            f"GET /api/v1/namespaces/rlark-gpu-a/pods?labelSelector=app%3Dppo-franka-0412-actor&limit=500 "
            f"200 OK in {rng.randint(1, 90)} milliseconds"
        )
    if r < 0.97:
        return (
            'Secret "regcred" not found; using node credentials. authentication required for '
            "swr.cn-north-4.myhuaweicloud.com (key_path=/etc/rlark/keys, token_ttl=3600)"
        )
    return f"{_ts(rng)} INFO runner Job build-{step} completed with result: Succeeded (runner version 2.317.0)"


# --- planted credentials ----------------------------------------------------------------------------


def _pem(rng: random.Random) -> tuple[str, list[str]]:
    body = [_s(rng, ALNUM + "+/", 64) for _ in range(rng.randint(6, 12))]
    kind = rng.choice(["RSA PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY"])
    return "\n".join([f"-----BEGIN {kind}-----", *body, f"-----END {kind}-----"]), body


def planted(rng: random.Random) -> tuple[str, list[str], list[str]]:
    """(family, lines, values that must not survive)."""
    u = lambda a, n: _s(rng, a, n)  # noqa: E731
    fam = rng.choice(FAMILIES)
    if fam == "github":
        v = rng.choice(["ghp_", "gho_", "ghs_"]) + u(ALNUM, 36)
        return fam, [f"+ git clone https://x-access-token:{v}@github.com/rlinf/RLinf.git"], [v]
    if fam == "github-pat":
        v = f"github_pat_{u(ALNUM, 22)}_{u(ALNUM, 59)}"
        return fam, [f"GH_PAT={v}"], [v]
    if fam == "gitlab":
        v = "glpat-" + u(ALNUM + "-_", 20)
        return fam, [f"remote: using token {v} for clone"], [v]
    if fam == "slack":
        v = f"xoxb-{u(string.digits, 12)}-{u(string.digits, 13)}-{u(ALNUM, 24)}"
        return fam, [f'{{"slack": {{"bot_token": "{v}", "channel": "#rl-alerts"}}}}'], [v]
    if fam == "slack-webhook":
        v = u(ALNUM, 24)
        return (
            fam,
            [
                f"notify: posting to https://hooks.slack.com/services/T{u('ABCDEFGH0123', 8)}/"
                f"B{u('ABCDEFGH0123', 10)}/{v}"
            ],
            [v],
        )
    if fam == "aws":
        kid = "AKIA" + u(string.ascii_uppercase + "234567", 16)
        sec = u(ALNUM + "/+", 40)
        return fam, [f"AWS_ACCESS_KEY_ID={kid}", f"AWS_SECRET_ACCESS_KEY={sec}"], [kid, sec]
    if fam == "aws-presigned":
        kid = "ASIA" + u(string.ascii_uppercase + "234567", 16)
        sig = u(HEX, 64)
        tok = u(ALNUM, 120)
        return (
            fam,
            [
                f"download https://rl-ckpt.s3.amazonaws.com/m.pt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={kid}%2F20240501%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Security-Token={tok}&X-Amz-Signature={sig}"
            ],
            [kid, sig, tok],
        )
    if fam == "huawei-obs-url":
        ak = u(string.ascii_uppercase + string.digits, 20)
        sig = u(ALNUM, 27) + "%3D"
        return (
            fam,
            [
                f'wget "https://rlinf-data.obs.cn-north-4.myhuaweicloud.com/x.tar?AccessKeyId={ak}&Expires=1714560000&Signature={sig}"'
            ],
            [ak, sig],
        )
    if fam == "huawei-aksk":
        ak = u(string.ascii_uppercase + string.digits, 20)
        sk = u(ALNUM, 40)
        return fam, [f"export HUAWEICLOUD_SDK_AK={ak}", f'export HUAWEICLOUD_SDK_SK="{sk}"'], [ak, sk]
    if fam == "huawei-hmac":
        ak = u(string.ascii_uppercase + string.digits, 20)
        sig = u(HEX, 64)
        return (
            fam,
            [
                f"DEBUG request headers: {{'X-Sdk-Date': '20240501T120000Z', 'Authorization': "
                f"'SDK-HMAC-SHA256 Access={ak}, SignedHeaders=content-type;host;x-sdk-date, Signature={sig}'}}"
            ],
            [ak, sig],
        )
    if fam == "alibaba":
        kid = "LTAI" + u(ALNUM, 20)
        sec = u(ALNUM, 30)
        return fam, [f"oss_config = {{'access_key_id': '{kid}', 'access_key_secret': '{sec}'}}"], [kid, sec]
    if fam == "huggingface":
        v = "hf_" + u(string.ascii_letters, 34)
        return fam, [f"huggingface-cli login --token {v}"], [v]
    if fam == "wandb":
        v = u(HEX, 40)
        return fam, ["  - name: WANDB_API_KEY", f"    value: {v}"], [v]
    if fam == "openai":
        v = "sk-proj-" + u(ALNUM + "-_", 48)
        return fam, [f'client = OpenAI(api_key="{v}")  # judge model'], [v]
    if fam == "npm":
        v = "npm_" + u(ALNUM, 36)
        return fam, [f"//registry.npmjs.org/:_authToken={v}"], [v]
    if fam == "pypi":
        v = "pypi-AgEIcHlwaS5vcmc" + u(ALNUM + "-_", 70)
        return fam, [f"twine upload dist/* -u __token__ -p {v}"], [v]
    if fam == "jwt":
        h = base64.urlsafe_b64encode(b'{"alg":"RS256","kid":"' + u(ALNUM, 20).encode() + b'"}').decode().rstrip("=")
        p = (
            base64.urlsafe_b64encode(
                json.dumps({"sub": "system:serviceaccount:rlark-system:agent", "exp": rng.randint(1, 1 << 31)}).encode()
            )
            .decode()
            .rstrip("=")
        )
        v = f"{h}.{p}.{u(ALNUM + '-_', 86)}"
        return fam, [f"kubectl --token={v} get pods -n rlark-system"], [v]
    if fam == "pem":
        block, body = _pem(rng)
        return fam, ["ssh key for rlark-sshd-init:", *block.split("\n")], body
    if fam == "pem-json":
        block, body = _pem(rng)
        return (
            fam,
            [json.dumps({"type": "service_account", "private_key": block + "\n", "client_email": "ci@x.iam"})],
            body,
        )
    if fam == "password-env":
        v = u(ALNUM + "!%^*_+.", 16)
        return fam, [f"MYSQL_ROOT_PASSWORD={v}"], [v]
    if fam == "password-cli":
        v = u(ALNUM, 14)
        return fam, [f"+ mysql -h 10.0.0.5 -u rlinf -p{v} -e 'select 1'"], [v]
    if fam == "url-userinfo":
        v = u(ALNUM, 18)
        return fam, [f"Connecting to redis://default:{v}@redis-master.rlark-system:6379/0"], [v]
    if fam == "bearer":
        v = u(ALNUM + "._-", 48)
        return fam, [f'curl -sS -H "Authorization: Bearer {v}" https://api.rlark.internal/v1/jobs'], [v]
    if fam == "basic":
        v = base64.b64encode(f"ci-bot:{u(ALNUM, 16)}".encode()).decode()
        return fam, [f"> Authorization: Basic {v}"], [v]
    if fam == "docker-config":
        auth = base64.b64encode(f"robot$ci:{u(ALNUM, 24)}".encode()).decode()
        return fam, [f'{{"auths":{{"swr.cn-north-4.myhuaweicloud.com":{{"auth":"{auth}"}}}}}}'], [auth]
    if fam == "kubeconfig":
        tok = u(ALNUM, 48)
        return fam, ["users:", "- name: ci-deployer", "  user:", f"    token: {tok}"], [tok]
    if fam == "base64-env":
        tok = "ghp_" + u(ALNUM, 36)
        blob = base64.b64encode(f"GITHUB_TOKEN={tok}\nRANK=0\n".encode()).decode()
        return fam, [f"echo {blob} | base64 -d > .env"], [tok, blob]
    if fam == "generic":
        v = u(ALNUM, 32)
        return fam, [f"  client_secret: {v}"], [v]
    raise AssertionError(fam)


FAMILIES = (
    "github",
    "github-pat",
    "gitlab",
    "slack",
    "slack-webhook",
    "aws",
    "aws-presigned",
    "huawei-obs-url",
    "huawei-aksk",
    "huawei-hmac",
    "alibaba",
    "huggingface",
    "wandb",
    "openai",
    "npm",
    "pypi",
    "jwt",
    "pem",
    "pem-json",
    "password-env",
    "password-cli",
    "url-userinfo",
    "bearer",
    "basic",
    "docker-config",
    "kubeconfig",
    "base64-env",
    "generic",
)


ECO_FAMILIES = tuple(ECO_FAMILIES_MAP)
# Ordinary lines shaped like a secret's place (see tests/redact/corpus/clean_ecosystem.txt): the
# redactor must leave them alone.
# Lines that only mean something inside their YAML block (an env entry's name:, a Secret reference) are
# left out: dropped between random lines, "- name: HF_TOKEN" would own the next "value:" as a real pod spec does.
_IN_BLOCK = re.compile(r"^[ \t]*-?[ \t]*(?:name|key|value|valueFrom|secretKeyRef|data|kind|metadata|namespace):")
LOOKALIKES = tuple(
    line.replace("\\x1b", "\x1b")
    for line in (Path(__file__).resolve().parents[2] / "tests/redact/corpus/clean_ecosystem.txt")
    .read_text(encoding="utf-8")
    .splitlines()
    if not _IN_BLOCK.match(line)
)
ECOSYSTEM = tuple(f"eco:{name}" for name in ECO_FAMILIES)
LOOKALIKE_SHARE = 0.01  # of clean lines


def all_families(*, extended: bool = True) -> tuple[str, ...]:
    return FAMILIES + ECOSYSTEM if extended else FAMILIES


def generate(size_mb: float = 32, *, seed: int = 7, per_family: int | None = None, extended: bool = True) -> Corpus:
    """``extended``: also plant the ecosystem families (bench/redact/ecosystem.py) and mix in
    lookalike clean lines; without it, the corpus of the first benchmark rounds. ``per_family``
    defaults to keeping the first rounds' density (about 1,120 records in 32 MB, one per ~230 lines)."""
    families = all_families(extended=extended)
    if per_family is None:  # the density of the earlier rounds (22 records of each of 53 families), whatever the count
        per_family = 40 if not extended else round(22 * 53 / len(families))
    rng = random.Random(seed)
    corpus = Corpus()
    target = int(size_mb * 1_000_000)
    n_planted = per_family * len(families)
    approx_lines = target // 130
    every = max(approx_lines // n_planted, 1)
    size = 0
    k = 0
    while size < target:
        if k % every == every - 1 and len(corpus.planted) < n_planted:
            if extended and len(corpus.planted) % len(families) >= len(FAMILIES):
                name = ECO_FAMILIES[len(corpus.planted) % len(families) - len(FAMILIES)]
                lines, values = eco_record(rng, name)
                fam = f"eco:{name}"
            else:
                fam, lines, values = planted(rng)
            corpus.planted.append((fam, values))
            for line in lines:
                corpus.secret_lines.add(len(corpus.lines))
                corpus.lines.append(line)
                size += len(line) + 1
        line = rng.choice(LOOKALIKES) if extended and rng.random() < LOOKALIKE_SHARE else clean_line(rng)
        corpus.lines.append(line)
        size += len(line.encode()) + 1
        k += 1
    return corpus
