"""Shared fixtures: the environment isolated, the runbook loaded once, scenario discovery, a real Redis."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from bot.cache import FileCache, default_cache_dir
from bot.diagnose.result import Diagnosis
from bot.redact import Redactor
from bot.runbook import Runbook, load_runbook
from bot.settings import Settings
from bot.signals.names import SIGNALS

# Keep the bytecode of the test modules (rewritten for assertion messages) and of bot/ in __pycache__ (ignored by
# git), whatever PYTHONDONTWRITEBYTECODE says: otherwise every run, and every xdist worker in it, rewrites and
# compiles them all again (3-4 s of CPU per worker), and each `rlark-bot serve` a test starts compiles bot/.
sys.dont_write_bytecode = False

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"
# CI runs the property tests on fixed examples, so a run's verdict is reproducible; on a developer's machine they
# keep exploring new examples (and a failure prints the seed that reproduces it).
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.register_profile("dev", print_blob=True)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")

# What a developer's shell or a .env file could set and a test would silently pick up.
_LEAKY = ("RLARK_BOT_", "SLACK_", "REDIS_URL", "KUBECONFIG", "PORT", "HOST")


@pytest.fixture(autouse=True)
def _isolated_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """No RLARK_BOT_*, SLACK_*, REDIS_URL, KUBECONFIG or .env reaches a test unless the test sets it."""
    for name in list(os.environ):
        if name.startswith(_LEAKY):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setitem(Settings.model_config, "env_file", None)


# The built-in redaction rules' database, read once from the on-disk cache the CLI keeps (or compiled and put there):
# every later `Redactor()` in this worker shares it instead of compiling it again (a second or more each worker).
Redactor(cache=FileCache(default_cache_dir()))


@pytest.fixture(autouse=True)
def _recursion_limit() -> Iterator[None]:
    """mypy's API (the type tests) raises the interpreter's recursion limit and leaves it raised: every later
    test in that worker would run with it (deep-nesting tests then parse thousands of levels before refusing)."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)


@pytest.fixture(scope="session")
def runbook() -> Runbook:
    return load_runbook(known_signals=SIGNALS)


# Under `--dist loadgroup` (scripts/test) xdist hands out one group at a time, and a test without a group is a group
# of its own. Tests that read `diagnosed` (the scenario tests, the renderers' scenario tests) are one group, so each
# scenario bundle is read and diagnosed once in a run, not once in every worker that gets one of its tests; a module
# whose tests share a module-scoped fixture is one group, so that fixture is built once (not again in every worker,
# nor again whenever that worker's tests of the module were interrupted by another module's).
SCENARIO_GROUP = pytest.mark.xdist_group("scenario-diagnoses")
_SHARED_SCOPES = frozenset({"module", "class", "package"})


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    definitions = getattr(info, "name2fixturedefs", {})
    return any(d.scope in _SHARED_SCOPES for defs in definitions.values() for d in defs)


# Modules whose tests each take seconds, mostly waiting on processes they start (or one long group): handed out
# first, so that they overlap with everything else instead of being the last thing a run waits for.
_LONG_FIRST = (
    "tests/ops/test_serve_process.py",
    "tests/test_forked.py",
    "tests/test_scenario_regeneration.py",
    "tests/alerts/test_replicas.py",
    "tests/redact/test_redact_shared_stream.py",
    "tests/slack/test_app_workers.py",
    "tests/ops/test_packaging.py",
    "tests/store/test_processes.py",
)


def _start_rank(item: pytest.Item) -> int:
    module = item.nodeid.split("::")[0]
    if module in _LONG_FIRST:
        return _LONG_FIRST.index(module)
    return len(_LONG_FIRST) if item.get_closest_marker("xdist_group") == SCENARIO_GROUP.mark else len(_LONG_FIRST) + 1


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the group marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        if "diagnosed" in getattr(item, "fixturenames", ()):
            item.add_marker(SCENARIO_GROUP)
        elif _shares_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(f"module:{item.nodeid.split('::')[0]}"))
    items.sort(key=_start_rank)  # stable: the order within each rank stays the collection's


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (modules, test items, compiled patterns) lives as long as the worker: it is moved out
    of the collector's reach, so the full collections a run triggers do not walk it again (about 60k objects)."""
    gc.freeze()


@pytest.fixture(scope="session")
def diagnosed(runbook: Runbook) -> Callable[[str], Diagnosis]:
    """`diagnosed(name)`: tests/scenarios/<name>'s bundle diagnosed for its expect.yaml target as of its capture
    time, with the built-in redaction rules and default thresholds; built once per session and shared (read only)."""
    from scenario_expect import load_expect

    from bot.bundle import read_bundle
    from bot.diagnose import diagnose
    from bot.models import Target
    from bot.settings import Thresholds

    redactor = Redactor()

    @cache
    def get(name: str) -> Diagnosis:
        exp = load_expect(SCENARIOS / name / "expect.yaml")
        evidence = read_bundle(SCENARIOS / name / "bundle")
        assert evidence.captured_at is not None
        return diagnose(evidence, runbook, now=evidence.captured_at, target=Target.parse(exp.target, exp.namespace),
                        redactor=redactor, thresholds=Thresholds())

    return get


from collections.abc import Iterator  # noqa: E402 - used by the Redis fixtures below


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Redis: the local server on 6379 when it answers, else a private one started for the session."""
    from redis_server import embedded_redis, local_redis_url

    local = local_redis_url()
    if local is not None:
        yield local
        return
    with embedded_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def store_prefix(request: pytest.FixtureRequest) -> Iterator[str]:
    """A key prefix of this test's own; what the test wrote under it on `redis_url` is deleted afterwards."""
    import uuid

    prefix = f"rlark-bot-test:{uuid.uuid4().hex[:16]}:"
    yield prefix
    if "redis_url" in request.fixturenames:
        from redis_server import delete_prefix

        delete_prefix(request.getfixturevalue("redis_url"), prefix)
