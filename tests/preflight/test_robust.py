"""Any value anywhere in a Job is a finding at most, never an exception."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from preflight.helpers import check, ready

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 10), st.floats(allow_nan=False, width=32),
                    st.text(max_size=8))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                      max_leaves=8)
PATHS = [("metadata",), ("metadata", "name"), ("spec",), ("spec", "tasks"), ("spec", "domain"),
         ("spec", "tasks", 0), ("spec", "tasks", 0, "nodeSelector"), ("spec", "tasks", 0, "head"),
         ("spec", "tasks", 1, "kubernetes"), ("spec", "tasks", 0, "kubernetes", "workload"),
         ("spec", "tasks", 0, "kubernetes", "workload", "replicas"),
         ("spec", "tasks", 0, "kubernetes", "workload", "pvcStorageMap"),
         ("spec", "tasks", 0, "kubernetes", "workload", "template", "spec"),
         ("spec", "tasks", 0, "kubernetes", "workload", "template", "spec", "containers", 0),
         ("spec", "tasks", 0, "kubernetes", "workload", "template", "spec", "containers", 0, "resources"),
         ("spec", "tasks", 0, "kubernetes", "workload", "template", "spec", "volumes"),
         ("spec", "tasks", 0, "kubernetes", "workload", "template", "metadata"),
         ("spec", "tasks", 0, "runScript")]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PATHS), VALUES, st.booleans())
def test_any_value_anywhere(path: tuple[Any, ...], value: Any, live: bool) -> None:
    data = ready()
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    report = check(data, live=live)
    for f in report.findings:
        assert f.rule and f.message
