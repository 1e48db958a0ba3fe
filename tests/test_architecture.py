"""Architecture rules that keep redaction from being bypassed.

Only `bot.sinks` writes outward (stdout, stderr, files), and every sink takes `SafeText`, which only the
redactor makes. Other modules may ask whether stderr is a terminal, nothing more.
"""

from __future__ import annotations

import ast
import inspect
import re
import typing
from pathlib import Path

import pytest
from typecheck import run_mypy

from bot import sinks
from bot.redact import Redactor, SafeText

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bot"
ALLOWED = ({PACKAGE / "sinks.py"} | set((PACKAGE / "redact").rglob("*.py"))  # the redactor writes its own output
           # The embedded store writes its own server config and lock file (a pid) in its data directory:
           # nothing from the evidence or from Slack passes there.
           | {PACKAGE / "store" / "embedded.py"}
           # The compiled-pattern cache: Hyperscan's own bytes for the built-in rules, nothing from the evidence.
           | {PACKAGE / "cache.py"})
WRITE_METHODS = {"write", "write_text", "write_bytes", "writelines"}


def _violations(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(root)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call):
            fn = node.func
            if isinstance(fn, ast.Name) and fn.id == "print":
                found.append(f"{where}: print()")
            if isinstance(fn, ast.Name) and fn.id == "open" and any(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) and set(a.value) & set("wax")
                    for a in node.args[1:2]):
                found.append(f"{where}: open() for writing")
            if isinstance(fn, ast.Attribute) and fn.attr in WRITE_METHODS:
                found.append(f"{where}: .{fn.attr}()")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and \
                isinstance(node.value.value, ast.Name) and node.value.value.id == "sys" and \
                node.value.attr in ("stdout", "stderr") and node.attr != "isatty":
            found.append(f"{where}: sys.{node.value.attr}.{node.attr}")
    return found


def test_only_sinks_write_outward() -> None:
    problems = [v for path in sorted(PACKAGE.rglob("*.py")) if path not in ALLOWED for v in _violations(path)]
    assert problems == []


def test_the_scanner_sees_a_bypass(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("import sys\nprint('x')\nsys.stdout.write('y')\nopen('f', 'w')\nPath('p').write_text('z')\n")
    lines = {int(v.split(":")[1]) for v in _violations(sneaky, tmp_path)}
    assert lines == {2, 3, 4, 5}


@pytest.mark.parametrize("name", ["write_stdout", "write_stderr", "write_file"])
def test_every_sink_takes_safe_text(name: str) -> None:
    fn = getattr(sinks, name)
    hints = typing.get_type_hints(fn)
    text_params = [p for p in inspect.signature(fn).parameters if p == "text"]
    assert text_params == ["text"] and hints["text"] is SafeText


def test_a_raw_str_is_refused_at_runtime(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        sinks.write_stdout("raw")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sinks.write_file(tmp_path / "x", "raw")  # type: ignore[arg-type]
    sinks.write_file(tmp_path / "ok", Redactor().redact("fine").text)
    assert (tmp_path / "ok").read_text(encoding="utf-8") == "fine"


def test_mypy_rejects_a_raw_str_at_a_sink(tmp_path: Path) -> None:
    snippet = tmp_path / "caller.py"
    snippet.write_text(
        "from pathlib import Path\n"
        "from bot.redact import Redactor\n"
        "from bot.sinks import write_file, write_stderr, write_stdout\n"
        "write_stdout(Redactor().redact('ok').text)\n"
        "write_stdout('token=abc')\n"
        "write_stderr(str(Redactor().redact('x').text) + 'y')\n"
        "write_file(Path('f'), 'raw')\n", encoding="utf-8")
    out, status = run_mypy(snippet, cache_dir=tmp_path / "cache")
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1
    assert [int(line.split(":")[1]) for line in errors] == [5, 6, 7], out


def test_library_stream_redacts_what_it_is_given_across_writes(capsys: pytest.CaptureFixture[str]) -> None:
    stream = sinks.stderr_stream(Redactor())
    stream.write("reading pods with token ghp_")
    stream.write("abcdefghijklmnopqrstuvwxyz0123456789\n")
    assert capsys.readouterr().err == ""  # nothing leaves before the writer flushes
    stream.flush()
    err = capsys.readouterr().err
    assert "abcdefghijklmnopqrstuvwxyz0123456789" not in err and "[REDACTED:" in err


def _broken_contracts(tree: Path, probes: dict[str, str]) -> set[str]:
    """Run import-linter with the project's contracts over a copy of the code with `probes` added."""
    import shutil
    import subprocess
    import sys

    for package in ("bot", "handlers"):
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    for name, text in probes.items():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text(text, encoding="utf-8")
    linter = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(linter), "--no-cache"], cwd=tree, capture_output=True, text=True, timeout=300,
                         env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, check=False)
    summary = re.search(r"dependencies\.\s*-+\s*(.*?)\s*Contracts: \d+ kept", run.stdout, re.S)
    assert summary is not None, run.stdout + run.stderr
    verdicts = re.findall(r"(.+?) (KEPT|BROKEN)(?: \(\d+ ignored imports?\))?\s*", " ".join(summary[1].split()) + " ")
    return {name.strip() for name, verdict in verdicts if verdict == "BROKEN"}


def test_a_module_added_in_any_package_is_covered_by_the_contracts(tmp_path: Path) -> None:
    """No contract names the new modules: the floors are exhaustive and the SDK rules take every module of both
    roots as their source, so each probe breaks the contract it should without the contract being edited."""
    broken = _broken_contracts(tmp_path, {
        "bot/fresh/__init__.py": '"""A package nobody placed on a floor."""\n',
        "bot/alerts/fresh.py": "import slack_sdk\n",
        "bot/render/fresh.py": "import redis\n",
        "bot/conversations/fresh.py": "import handlers\n",
        "handlers/fresh.py": "import apscheduler\n",
        "bot/workers/fresh.py": "import bot.process.root\n",
    })
    assert broken == {
        "Every module of bot sits on a floor and imports only downwards",
        "Only the Slack adapter and the listeners import the Slack SDK",
        "Only the store imports redis",
        "Nothing in bot imports the listeners but the composition root",
        "Only the scheduler imports APScheduler",
        "The Slack side: the composition root above the listeners and the SDK adapter, conversations below both",
        "The pure core imports no SDK",
    }


# posting.py is the sink's own post-once path: it sends only what `SlackSink.post` sealed and hands it.
SLACK_SENDERS = {ROOT / "bot" / "slack" / "sink.py", ROOT / "bot" / "slack" / "client.py",
                 ROOT / "bot" / "slack" / "posting.py"}
BOLT_SENDERS = {"say", "respond", "client"}  # what bolt injects into a listener that takes them: any str goes


def _slack_bypasses(path: Path, root: Path = ROOT, *, listeners: bool = True) -> list[str]:
    """Direct Web API calls (`x.chat_*`, `x.files_*`, `x.api_call`) and, with `listeners`, functions that take
    bolt's `say`, `respond` or `client`: everything must go through the ChatSink, which takes sealed messages
    only. (Outside the listeners, the adapter's factories take a client to build on.)"""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(root)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr.startswith(("chat_", "files_")) or node.func.attr == "api_call"):
            found.append(f"{where}: .{node.func.attr}()")
        if listeners and isinstance(node, ast.FunctionDef | ast.Lambda):
            names = {a.arg for a in (*node.args.args, *node.args.kwonlyargs)}
            found += [f"{where}: takes bolt's {name}" for name in sorted(names & BOLT_SENDERS)]
    return found


def test_only_the_chat_sink_calls_the_slack_web_api() -> None:
    found = [v for path in sorted(set((ROOT / "bot").rglob("*.py")) - SLACK_SENDERS)
             for v in _slack_bypasses(path, listeners=False)]
    found += [v for path in sorted((ROOT / "handlers").rglob("*.py")) for v in _slack_bypasses(path)]
    assert found == []


def test_the_slack_scanner_sees_a_bypass(tmp_path: Path) -> None:
    sneaky = tmp_path / "listener.py"
    sneaky.write_text("def on(ack, body, say):\n    say('x')\n\n\ndef other(client):\n"
                      "    client.chat_postMessage(channel='C', text='t')\n    client.files_upload_v2(content='c')\n")
    found = _slack_bypasses(sneaky, tmp_path)
    assert sorted(int(v.split(":")[1]) for v in found) == [1, 5, 6, 7]
