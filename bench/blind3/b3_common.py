"""Shared pieces of the third blind set: the scenario record and the source labels.

Bundle writers come from bench/blind (gen_k8s, gen_logs, gen_rlark, gen_ci); only the situations here are new.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
BLIND = HERE.parent / "blind"
if str(BLIND) not in sys.path:
    sys.path.append(str(BLIND))

S0 = "seeds/000_cc0ff76fc137d550.txt (RLark 训练任务与 Worker 排障)"
S1 = "seeds/001_133afc7681d5fa58.txt (RLark 首次运行问题排查)"
S3 = "seeds/003_c40242c02c0bfd09.txt (runner pod 任务失败案例参考)"


@dataclass
class Scenario:
    """One situation: how to write its bundle and what the right answer is."""

    name: str
    kind: str                      # rlark | ci | none
    write: Callable[[Path], None]
    description: str
    why: str                       # one line: the seed section or public report the answer follows
    target: str
    first: str
    namespace: str | None = None
    last_stage: str | None = None
    also: list[str] = field(default_factory=list)   # alternates the contract genuinely allows
    healthy: bool = False
