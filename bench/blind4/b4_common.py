"""The fourth blind set's shared pieces: its directory, and the scenario record and seed labels of every set
(bench/blind/setbuild.py). Bundle writers come from bench/blind (gen_k8s, gen_logs, gen_rlark, gen_ci).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BLIND = HERE.parent / "blind"
if str(BLIND) not in sys.path:
    sys.path.append(str(BLIND))

from setbuild import S0, S1, S3, Scenario  # noqa: E402

__all__ = ["BLIND", "HERE", "S0", "S1", "S3", "Scenario"]
