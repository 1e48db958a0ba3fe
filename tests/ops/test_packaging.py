"""The runbooks travel with the package: the loader finds them through importlib.resources, a build puts every
one of them into the package, and the repository keeps one copy (`bot/runbook/data` is a link to `runbooks/`).

The build runs on a copy of the image's build context (what .dockerignore lets in), so nothing is written into
the working tree.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest

from bot.runbook.loader import DEFAULT_DIR, load_file, load_runbook

ROOT = Path(__file__).resolve().parents[2]
RUNBOOKS = ROOT / "runbooks"
PACKAGED = Path("bot") / "runbook" / "data"
BUILD_TIMEOUT = 60


def repo_runbooks() -> dict[str, str]:
    found = {p.name: p.read_text(encoding="utf-8") for p in sorted(RUNBOOKS.glob("*.yaml"))}
    assert found, "runbooks/ holds no *.yaml"
    return found


def build_context() -> list[str]:
    """The top-level paths .dockerignore lets into the image's build context (`!name` lines)."""
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line[1:].strip().rstrip("/") for line in lines if line.startswith("!")]


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the build context, links kept as links (as `COPY` keeps them)."""
    root = tmp_path_factory.mktemp("context")
    for name in build_context():
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, root / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.py[cod]", "*.egg-info"))
        else:
            shutil.copy2(source, root / name)
    return root


def test_the_loader_finds_every_runbook_through_importlib_resources() -> None:
    data = resources.files("bot.runbook") / "data"
    shipped = {entry.name: entry.read_text(encoding="utf-8")
               for entry in data.iterdir() if entry.name.endswith(".yaml")}
    assert shipped == repo_runbooks()
    assert Path(str(data)) == DEFAULT_DIR
    cases = sum(len(load_file(RUNBOOKS / name)) for name in shipped)
    assert len(load_runbook().cases) == cases  # the default directory is the packaged one, every case in it


def test_the_repository_keeps_one_copy() -> None:
    link = ROOT / PACKAGED
    assert link.is_symlink() and link.resolve() == RUNBOOKS.resolve()
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run([git, "ls-files", "-s", "--", str(PACKAGED)], cwd=ROOT, capture_output=True, text=True,
                            timeout=30, check=True).stdout.split()
    if not listed:
        pytest.skip(f"{PACKAGED} is not committed yet")
    assert listed[0] == "120000"  # git stores a link, not a second set of files


def test_a_build_puts_every_runbook_into_the_package(context: Path, tmp_path: Path) -> None:
    """`build_py` is the step that fills a wheel's purelib: packages and their package data."""
    out = tmp_path / "lib"
    proc = subprocess.run([sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "build_py", "-d",
                           str(out)], cwd=context, capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    built = out / PACKAGED
    assert not built.is_symlink()
    files = sorted(built.glob("*.yaml"))
    assert all(p.is_file() and not p.is_symlink() for p in files)
    assert {p.name: p.read_text(encoding="utf-8") for p in files} == repo_runbooks()
    assert (out / "bot" / "runbook" / "loader.py").is_file()


def _can_build_wheels() -> bool:
    return any(importlib.util.find_spec(name) is not None for name in ("wheel", "setuptools.command.bdist_wheel"))


def test_the_wheel_lists_every_runbook(context: Path, tmp_path: Path) -> None:
    if not _can_build_wheels():
        pytest.skip("no bdist_wheel here (the `wheel` package, or setuptools >= 70.1, is not installed)")
    out = tmp_path / "wheels"
    try:
        proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                               "--no-index", "-q", ".", "-w", str(out)], cwd=context, capture_output=True, text=True,
                              timeout=BUILD_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        pytest.skip(f"pip wheel took over {BUILD_TIMEOUT} s on this machine")
    assert proc.returncode == 0, proc.stderr[-2000:]
    (wheel,) = out.glob("rlark_bot-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {f"bot/runbook/data/{name}" for name in repo_runbooks()} <= names
