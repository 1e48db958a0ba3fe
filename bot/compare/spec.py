"""Spec changes between two runs, task by task (matched by name, then by head, then by role)."""

from __future__ import annotations

import difflib

from bot.compare.flatten import Flat, Namer, flatten
from bot.compare.model import CATEGORIES, SpecChange
from bot.compare.quantity import same_quantity
from bot.models.rlark import JobSpec, TaskSpec
from bot.redact import Redactor

SCRIPT_FIELDS = ("prepareScript", "runScript")
HIDDEN = "(the scripts differ only inside a redacted value)"


def match_tasks(a: list[TaskSpec], b: list[TaskSpec]) -> list[tuple[TaskSpec | None, TaskSpec | None]]:
    """Pairs of tasks: the same name first, then the Head with the Head, then the same role in order; a task left
    over is paired with None (added or removed)."""
    pairs: list[tuple[TaskSpec | None, TaskSpec | None]] = []
    left_b = list(b)
    unmatched_a: list[TaskSpec] = []
    for ta in a:
        tb = next((t for t in left_b if t.name == ta.name), None)
        if tb is None:
            unmatched_a.append(ta)
        else:
            left_b.remove(tb)
            pairs.append((ta, tb))
    for how in ("head", "role"):
        for ta in list(unmatched_a):
            tb = next((t for t in left_b if _alike(how, x=ta, y=t)), None)
            if tb is not None:
                unmatched_a.remove(ta)
                left_b.remove(tb)
                pairs.append((ta, tb))
    pairs.extend((ta, None) for ta in unmatched_a)
    pairs.extend((None, tb) for tb in left_b)
    return pairs


def _alike(how: str, *, x: TaskSpec, y: TaskSpec) -> bool:
    return x.head and y.head if how == "head" else bool(x.role) and x.role == y.role


def _label(ta: TaskSpec | None, tb: TaskSpec | None) -> str:
    if ta is not None and tb is not None and ta.name != tb.name:
        return f"{ta.name}→{tb.name}"
    return (ta or tb).name if (ta or tb) is not None else "?"  # type: ignore[union-attr]


def _script_diff(*, task: str, fld: str, a: str | None, b: str | None) -> str:
    lines = difflib.unified_diff((a or "").splitlines(), (b or "").splitlines(), fromfile=f"A/{task}/{fld}",
                                 tofile=f"B/{task}/{fld}", lineterm="", n=2)
    return "\n".join(lines)


def _differs(category: str, *, a: str | None, b: str | None) -> bool:
    return not same_quantity(a, b) if category == "resources" else a != b


def diff_flat(task: str, *, fa: Flat, fb: Flat) -> list[SpecChange]:
    out: list[SpecChange] = []
    keys = list(dict.fromkeys([*fa, *fb]))
    keys.sort(key=lambda k: CATEGORIES.index(k[0]))
    for category, fld in keys:
        if not _differs(category, a=fa.compared((category, fld)), b=fb.compared((category, fld))):
            continue
        a, b = fa.get((category, fld)), fb.get((category, fld))
        diff = _script_diff(task=task, fld=fld, a=a, b=b) if fld in SCRIPT_FIELDS else ""
        if fld in SCRIPT_FIELDS and not diff:
            diff = HIDDEN
        out.append(SpecChange(task=task, category=category, field=fld, a=a, b=b, diff=diff))
    return out


def spec_changes(a: JobSpec, b: JobSpec, *, names: tuple[str, str], redactor: Redactor,
                 digests: tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]] | None = None
                 ) -> list[SpecChange]:
    """Every change between the two Jobs' specs. `names`: the two Jobs' names (normalised away). `digests`: per
    task name, the image digests `main` ran with in each run; compared only where both runs pulled one."""
    namer_a, namer_b = Namer(names[0]), Namer(names[1])
    changes: list[SpecChange] = []
    if (a.domain or "") != (b.domain or ""):
        changes.append(SpecChange(task="", category="domain", field="domain", a=a.domain or None,
                                  b=b.domain or None))
    for ta, tb in match_tasks(a.tasks, b.tasks):
        label = _label(ta, tb)
        if ta is None or tb is None:
            present = "present"
            changes.append(SpecChange(task=label, category="replicas", field="task",
                                      a=present if ta else None, b=present if tb else None))
            continue
        fa = flatten(ta, namer=namer_a, redactor=redactor)
        fb = flatten(tb, namer=namer_b, redactor=redactor)
        if digests is not None:
            da, db = digests[0].get(ta.name, ()), digests[1].get(tb.name, ())
            if da and db:  # a digest counts only when both runs pulled an image
                fa[("image", "main.digest")] = ", ".join(da)
                fb[("image", "main.digest")] = ", ".join(db)
        changes.extend(diff_flat(label, fa=fa, fb=fb))
    return changes
