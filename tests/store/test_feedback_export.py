"""`rlark-bot feedback export`: the votes kept in the store, as JSON (with counts per case) or CSV."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from redis_server import embedded_redis

from bot.cli import main
from bot.store.factory import open_store
from bot.store.feedback import FeedbackVote, cast, votes
from bot.store.memory import MemoryStore


def _vote(user: str, vote: str, *, ts: str = "1.1", case: str = "rlark.ray.head-unreachable") -> FeedbackVote:
    return FeedbackVote(channel="C1", ts=ts, thread="1.0", user=user, vote=vote, case=case, at=float(len(user)))


def test_one_vote_per_user_per_reply() -> None:
    store = MemoryStore()
    assert cast(store, _vote("U1", "up")) == ""
    assert cast(store, _vote("U1", "up")) is None, "the same vote again changes nothing"
    assert cast(store, _vote("U1", "down")) == "up", "a changed vote replaces the old one"
    assert cast(store, _vote("U1", "up", ts="2.2")) == "", "another reply is another vote"
    assert sorted((v.ts, v.vote) for v in votes(store)) == [("1.1", "down"), ("2.2", "up")]


def test_export_reads_the_store_serve_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with embedded_redis(tmp_path) as url:
        store = open_store(url=url, data_dir=tmp_path)
        cast(store, _vote("U1", "up"))
        cast(store, _vote("U22", "down"))
        cast(store, _vote("U333", "down", case="none"))
        store.close()
        monkeypatch.setenv("REDIS_URL", url)
        monkeypatch.chdir(tmp_path)  # no .env of the developer's
        assert main(["feedback", "export"]) == 0
        exported = json.loads(capsys.readouterr().out)
        assert exported["by_case"] == {"none": {"up": 0, "down": 1},
                                       "rlark.ray.head-unreachable": {"up": 1, "down": 1}}
        assert [v["user"] for v in exported["votes"]] == ["U1", "U22", "U333"]
        assert main(["feedback", "export", "--format", "csv"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0] == "at,case,vote,channel,thread,ts,user" and len(lines) == 4


def test_a_bad_store_url_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    monkeypatch.setenv("REDIS_URL", "http://user:hunter2-password@nowhere")
    monkeypatch.chdir(tmp_path)
    assert main(["feedback", "export"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "REDIS_URL" in err and "hunter2" not in err
