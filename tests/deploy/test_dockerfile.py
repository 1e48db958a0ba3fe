"""The image: what the Dockerfile promises, read from the file; the build context the .dockerignore leaves; the
HEALTHCHECK command run for real against a stand-in; and, where a Docker engine answers, a real build."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
Instruction = tuple[str, str]


def instructions(text: str) -> list[Instruction]:
    """(KEYWORD, arguments) per instruction, continuation lines joined, comments dropped."""
    out: list[Instruction] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        keyword, _, rest = line.partition(" ")
        out.append((keyword.upper(), rest.strip()))
    return out


def stages(parsed: list[Instruction]) -> list[list[Instruction]]:
    out: list[list[Instruction]] = []
    for ins in parsed:
        if ins[0] == "FROM":
            out.append([])
        if out:
            out[-1].append(ins)
    return out


@pytest.fixture(scope="module")
def parsed() -> list[Instruction]:
    return instructions(DOCKERFILE.read_text(encoding="utf-8"))


def test_base_is_pinned_slim_python_311_and_the_build_is_two_stages(parsed: list[Instruction]) -> None:
    (arg,) = [rest for kw, rest in parsed if kw == "ARG" and rest.startswith("PYTHON_IMAGE=")]
    assert re.fullmatch(r"PYTHON_IMAGE=python:3\.11\.\d+-slim-bookworm", arg)
    froms = [rest for kw, rest in parsed if kw == "FROM"]
    assert froms == ["${PYTHON_IMAGE} AS build", "${PYTHON_IMAGE} AS runtime"]


def test_the_toolchain_stays_in_the_build_stage(parsed: list[Instruction]) -> None:
    build, runtime = stages(parsed)
    build_runs = " ".join(rest for kw, rest in build if kw == "RUN")
    assert "build-essential" in build_runs
    assert re.search(r"/opt/rlark-bot/bin/pip install \.(\s|$)", build_runs)  # from pyproject, as the README
    assert "requirements" not in DOCKERFILE.read_text(encoding="utf-8")  # no second dependency list
    runtime_text = " ".join(rest for _, rest in runtime)
    assert not re.search(r"apt-get|build-essential|gcc|make ", runtime_text)
    assert ("COPY", "--from=build /opt/rlark-bot /opt/rlark-bot") in runtime


def test_python_that_imports_the_package_is_isolated_from_the_source_tree(parsed: list[Instruction]) -> None:
    # In the build stage the working directory holds bot/ itself; without -I, `python -c` would import that copy
    # and not the installed package (and look for runbooks beside the sources).
    runs = [rest for kw, rest in parsed if kw == "RUN" and re.search(r"python\"?,? .*-c", rest) and "bot" in rest]
    assert runs
    for run in runs:
        assert re.search(r"python\"?,? +\"?-I\"?,? +\"?-c", run), run


def test_runtime_user_entrypoint_environment_and_healthcheck(parsed: list[Instruction]) -> None:
    _, runtime = stages(parsed)
    (user,) = [rest for kw, rest in runtime if kw == "USER"]
    assert re.fullmatch(r"[1-9]\d*:[1-9]\d*", user)  # numeric, not root: runAsNonRoot can verify it
    assert [rest for kw, rest in runtime if kw == "ENTRYPOINT"] == ['["rlark-bot", "serve"]']
    env = " ".join(rest for kw, rest in runtime if kw == "ENV")
    assert "RLARK_BOT_DATA_DIR=/data" in env.split() and "PORT=3000" in env.split()
    probe = healthcheck_argv(runtime)
    assert probe[0] == "python" and "/healthz" in probe[-1]
    assert not re.search(r"\b(curl|wget)\b", " ".join(probe + [rest for kw, rest in parsed if kw == "RUN"]))
    # Exec form everywhere the container runs something: no shell is needed at run time.
    assert [rest for kw, rest in runtime if kw in ("ENTRYPOINT", "CMD")] == ['["rlark-bot", "serve"]']


def healthcheck_argv(runtime: list[Instruction]) -> list[str]:
    (check,) = [rest for kw, rest in runtime if kw == "HEALTHCHECK"]
    options, cmd, argv = check.partition("CMD ")
    assert cmd and "--interval=" in options
    parsed = json.loads(argv)
    assert isinstance(parsed, list) and all(isinstance(a, str) for a in parsed)
    return list(parsed)


class _Health(BaseHTTPRequestHandler):
    status = 200

    def do_GET(self) -> None:
        self.send_response(self.status if self.path == "/healthz" else 404)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def health_server() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    # shutdown() waits for the loop's next poll: a short interval keeps the teardown from idling half a second
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.mark.parametrize(("status", "healthy"), [(200, True), (503, False)])
def test_the_healthcheck_command_asks_healthz_and_ignores_proxies(parsed: list[Instruction],
                                                                 health_server: ThreadingHTTPServer,
                                                                 status: int, healthy: bool) -> None:
    _Health.status = status
    argv = [sys.executable, *healthcheck_argv(stages(parsed)[1])[1:]]
    env = {"PATH": os.environ.get("PATH", ""), "PORT": str(health_server.server_address[1]),
           "HTTP_PROXY": "http://127.0.0.1:9", "http_proxy": "http://127.0.0.1:9"}  # a proxy that answers nothing
    proc = subprocess.run(argv, env=env, capture_output=True, timeout=30, check=False)
    assert (proc.returncode == 0) is healthy, proc.stderr


def _pattern(glob: str) -> re.Pattern[str]:
    """A .dockerignore pattern as Docker reads it: `*` stays within one path segment, `**` spans any."""
    out = ""
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif glob.startswith("**", i):
            out, i = out + ".*", i + 2
        elif glob[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif glob[i] == "[":
            end = glob.index("]", i)
            out, i = out + glob[i:end + 1], end + 1
        else:
            out, i = out + re.escape(glob[i]), i + 1
    return re.compile(out + r"(?:/.*)?")  # a matched directory takes what is below it along


def ignored(path: str, rules: list[str]) -> bool:
    result = False
    for rule in rules:
        negate = rule.startswith("!")
        glob = rule[1:] if negate else rule
        if _pattern(glob.rstrip("/")).fullmatch(path):
            result = not negate
    return result


@pytest.fixture(scope="module")
def rules() -> list[str]:
    text = (ROOT / ".dockerignore").read_text(encoding="utf-8")
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


@pytest.mark.parametrize("path", ["tests/test_cli.py", "bench/engine/run.py", "examples/x/TARGET", ".venv/bin/python",
                                  ".git/HEAD", "scripts/demo", "deploy/base/deployment.yaml", ".env",
                                  "bot/__pycache__/cli.cpython-311.pyc", "rlark_bot.egg-info/PKG-INFO"])
def test_the_build_context_leaves_out(rules: list[str], path: str) -> None:
    assert ignored(path, rules)


def test_the_build_context_holds_everything_the_dockerfile_copies(rules: list[str],
                                                                  parsed: list[Instruction]) -> None:
    sources = [src for kw, rest in parsed if kw == "COPY" and not rest.startswith("--from")
               for src in rest.split()[:-1]]
    assert sources
    for src in sources:
        tracked = [p for p in (ROOT / src).rglob("*") if p.is_file() and "__pycache__" not in p.parts] \
            if (ROOT / src).is_dir() else [ROOT / src]
        assert tracked, src
        for path in tracked:
            assert not ignored(str(path.relative_to(ROOT)), rules), path


def test_the_ignore_matcher_reads_patterns_as_docker_does() -> None:
    assert ignored("a/b/c.pyc", ["**/*.py[cod]"]) and not ignored("a/b/c.py", ["**/*.py[cod]"])
    assert ignored("tests/x.py", ["*"]) and not ignored("bot/x.py", ["*", "!bot/"])
    assert ignored("bot/__pycache__/x", ["*", "!bot/", "**/__pycache__"])


def test_the_image_builds_and_runs_the_cli(tmp_path: Path) -> None:
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("docker engine not available: no docker client on PATH")
    info = subprocess.run([docker, "info"], capture_output=True, text=True, timeout=30, check=False)
    if info.returncode != 0:
        reason = (info.stderr.strip().splitlines() or ["docker info failed"])[-1]
        pytest.skip(f"docker engine not available: {reason}")
    tag = f"rlark-bot-test:{os.getpid()}"
    build = subprocess.run([docker, "build", "-t", tag, str(ROOT)], capture_output=True, text=True, timeout=1800,
                           check=False)
    assert build.returncode == 0, build.stderr[-4000:]
    try:
        cli = subprocess.run([docker, "run", "--rm", "--read-only", "--entrypoint", "rlark-bot", tag, "--help"],
                             capture_output=True, text=True, timeout=120, check=False)
        assert cli.returncode == 0, cli.stderr
        assert "diagnose" in cli.stdout and "serve" in cli.stdout
        serve = subprocess.run([docker, "run", "--rm", "--read-only", tag, "--help"], capture_output=True,
                               text=True, timeout=120, check=False)
        assert serve.returncode == 0 and "serve" in serve.stdout, serve.stderr
        user = subprocess.run([docker, "image", "inspect", "--format", "{{.Config.User}}", tag],
                              capture_output=True, text=True, timeout=60, check=True)
        assert user.stdout.strip() == "10001:10001"
    finally:
        subprocess.run([docker, "image", "rm", "-f", tag], capture_output=True, timeout=120, check=False)
