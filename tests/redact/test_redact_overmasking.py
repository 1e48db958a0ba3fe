"""Shapes that were masked although they hold no secret (training settings, file paths, colour after a
value), and wrapped tokens whose short tail survived. Each in the log lines that print it, with and
without Hyperscan; the secrets next to them still go."""

from __future__ import annotations

import pytest

from bot.redact import Redactor

REDACTORS = [Redactor(), Redactor(use_hyperscan=False)]
IDS = ["hyperscan", "pure-re"]

SETTINGS = [
    "actor.rollout_batch_size=64 trainer.tensor_parallel_size=2",
    "  tensor_parallel_size: 2",
    "actor.optim.lr=1e-6 data.max_prompt_length=1024",
    "algorithm.token_level_loss=1",
    "  token_level_loss: 0.5",
    "  ppo_token_level_loss: 0.2",
    "  token_level: sequence",
    "  TOKEN_LEVEL=1",
    "  token_level_kl: 1e-3",
    "+actor.optim.token_lr=1e-6 critic.token_clip=0.5",
    "  secret_batch: 4",
    "  pass_level: 3",
    "+trainer.sk_level=2 key_level=3",
    "['actor.rollout_batch_size=64', 'algorithm.token_level_loss=1', 'data.max_prompt_length=1024']",
    "Overrides: {'token_level_loss': 1, 'key_size': 64}",
    "max_tokens=2048 num_tokens=100 tokenizer_path=/models/Qwen2.5-7B",
    # OmegaConf errors print the config key as the value of a "key"
    "omegaconf.errors.ConfigAttributeError: Key 'rollout_batch_size' is not in struct",
    "    full_key: actor.rollout_batch_size",
    "    full_key: actor.rollout.tensor_parallel_size",
    "    full_key: algorithm.token_level_loss",
    "  key: actor.rollout.tensor_parallel_size",
    "  key=actor_rollout_ref.rollout.tensor_model_parallel_size",
    "  config_key: actor_rollout_ref.actor.ppo_mini_batch_size",
    '  "key": "actor_rollout_ref.rollout.gpu_memory_utilization"',
    "  lookup_key=actor_rollout_ref.model.enable_gradient_checkpointing",
    "  sort_key: global_step_1234",
    "[2026-12-01 10:00:00,000][__main__][INFO] - full_key: trainer.n_gpus_per_node",
]

PATHS = [
    "PermissionError: [Errno 13] Permission denied: '/etc/passwd'",
    "open /etc/passwd: permission denied",
    "cat: /etc/shadow: Permission denied",
    "chmod: changing permissions of '/etc/passwd': Operation not permitted",
    "sudo: unable to open /etc/sudoers.d/pass: Permission denied",
    "error: open /var/run/secrets/kubernetes.io/serviceaccount/token: permission denied",
    "2026-12-01T10:00:00.123Z stdout F Error: open /run/secrets/hf/token: no such file or directory",
    "--password-file=/run/secrets/x",
    "docker login --password-file /run/secrets/swr",
    "--password=/run/secrets/db_password",
    "  password: /run/secrets/db_password",
    "kubectl: error: --token=/tmp/tok not allowed",
]


@pytest.mark.parametrize("redactor", REDACTORS, ids=IDS)
@pytest.mark.parametrize("line", SETTINGS + PATHS)
def test_settings_and_paths_stay_readable(redactor: Redactor, line: str) -> None:
    assert redactor.redact(line).text == line
    assert redactor.scan(line) == []


@pytest.mark.parametrize("redactor", REDACTORS, ids=IDS)
@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("token_level_loss=1 HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz12345678", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz12345678"),
        ("  password: hunter2hunter2", "hunter2hunter2"),
        ("DB_PASSWORD=12345678", "12345678"),
        ("  secret_key: Zq8xVb3nMw1LkP0oIu7y", "Zq8xVb3nMw1LkP0oIu7y"),
        ("key: Zq8xVb3nMw1LkP0oIu7yTr5eWq", "Zq8xVb3nMw1LkP0oIu7yTr5eWq"),
        ("token_secret: Zq8x-Vb3n-Mw1L-kP0o", "Zq8x-Vb3n-Mw1L-kP0o"),
        ("https://ci-token:Zq8xVb3nMw1LkP0oIu7y@git.example.com/repo.git", "Zq8xVb3nMw1LkP0oIu7y"),
    ],
)
def test_secrets_beside_them_still_go(redactor: Redactor, line: str, secret: str) -> None:
    assert secret not in redactor.redact(line).text


@pytest.mark.parametrize("redactor", REDACTORS, ids=IDS)
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("\x1b[32mpassword=hunter2hunter2\x1b[0m done", "\x1b[32mpassword=[REDACTED:password]\x1b[0m done"),
        ("API_TOKEN=ghp_" + "a1" * 18 + "\x1b[0m", "API_TOKEN=[REDACTED:github-token]\x1b[0m"),
        ("secret_key: Zq8xVb3nMw1LkP0oIu7y\x1b[0m rest", "secret_key: [REDACTED:secret-key]\x1b[0m rest"),
        (
            "\x1b[1;36mINFO\x1b[0m token=\x1b[33mglpat-Zq8xVb3nMw1LkP0oIu7y\x1b[39m\x1b[0m ok",
            "\x1b[1;36mINFO\x1b[0m token=\x1b[33m[REDACTED:gitlab-token]\x1b[39m\x1b[0m ok",
        ),
    ],
)
def test_the_mask_ends_where_the_secret_ends(redactor: Redactor, line: str, expected: str) -> None:
    assert redactor.redact(line).text == expected


TOKENS = ["ghp_" + "Ab3Cd4Ef5Gh6Ij7Kl8Mn9Op0Qrstuvwxyzab", "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzabcdefgh"]


@pytest.mark.parametrize("redactor", REDACTORS, ids=IDS)
@pytest.mark.parametrize("token", TOKENS, ids=["github", "huggingface"])
@pytest.mark.parametrize(
    "shape",
    [
        "token: {head}\n{tail}\n",
        "export GITHUB_TOKEN={head}\n{tail}\nnext step\n",
        "INFO login with {head}\nINFO {tail} ok\n",
        "2026-12-01T10:00:00.123Z stdout F HF_TOKEN={head}\n2026-12-01T10:00:00.124Z stdout F {tail}\n",
        "curl -H 'Authorization: Bearer {head}\n{tail}' https://api.example.com\n",
    ],
)
@pytest.mark.parametrize("tail_len", [4, 6, 9])
def test_a_wrapped_token_with_a_short_lowercase_tail_goes(
    redactor: Redactor, token: str, shape: str, tail_len: int
) -> None:
    head, tail = token[:-tail_len], token[-tail_len:]
    assert tail.islower()
    text = shape.format(head=head, tail=tail)
    out = redactor.redact(text).text
    assert tail not in out, out
    assert head not in out, out


@pytest.mark.parametrize("redactor", REDACTORS, ids=IDS)
def test_a_word_after_a_whole_token_stays(redactor: Redactor) -> None:
    token = TOKENS[0]
    text = f"INFO login with {token}\nINFO next step done\n"
    out = redactor.redact(text).text
    assert out == "INFO login with [REDACTED:github-token]\nINFO next step done\n"
