"""The redactor's throughput alone, for comparing two versions of the code in turn on one machine.

    python -m bench.redact.throughput [--size-mb 32] [--repeats 5]

Times ``Redactor.redact`` over the benchmark corpus (bench/redact/corpus.py, seed 7), a fresh redactor per run,
best of ``--repeats``; prints one line: best wall and CPU MB/s and each run. The whole comparison with the peer
tools, recall and false positives is bench/redact/run.py.
"""

from __future__ import annotations

import argparse
import gc
import time

from bench.redact.corpus import generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size-mb", type=float, default=32)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    from bot.redact import Redactor

    text = generate(args.size_mb).text
    mb = len(text.encode()) / 1e6
    Redactor().redact("warm up AWS_SECRET_ACCESS_KEY=abc")
    runs: list[tuple[float, float]] = []
    for _ in range(args.repeats):
        redactor = Redactor()
        gc.collect()
        gc.freeze()
        start, cpu = time.perf_counter(), time.process_time()
        redactor.redact(text)
        runs.append((time.perf_counter() - start, time.process_time() - cpu))
    wall, cpu_s = min(w for w, _ in runs), min(c for _, c in runs)
    each = ", ".join(f"{mb / w:.1f}" for w, _ in runs)
    print(f"{mb:.1f} MB: best {mb / wall:.1f} MB/s wall, {mb / cpu_s:.1f} MB/s CPU; runs {each}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
