"""A bad setting said in one line, naming the environment variable to change: the value's problem, a key that
does not exist (and the one probably meant), or the variable whose value is not JSON."""

from __future__ import annotations

import difflib
import json
import os
import re
from typing import get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_settings import SettingsError

from bot.settings import Settings


def invalid(exc: ValidationError) -> str:
    errors = exc.errors()
    err, loc = errors[0], _path(errors[0]["loc"])
    where = "__".join(loc).upper()
    name = where if where.startswith(("SLACK_", "REDIS_", "PORT", "HOST")) else f"RLARK_BOT_{where}"
    if err["type"] == "extra_forbidden":
        return f"unknown setting {name}{_did_you_mean(err['loc'])}"
    return f"bad setting {name}: {_either([e['msg'] for e in errors if _path(e['loc']) == loc])}"


def not_json(exc: SettingsError) -> str:
    m = re.search(r'field "([a-z_]+)"', str(exc))
    name = m.group(1).upper() if m else ""
    variable = f"RLARK_BOT_{name}" if name and not name.startswith(("SLACK_", "REDIS_")) else name or "a setting"
    return f"bad setting {_holding_not_json(variable)}: not valid JSON"


def _path(loc: tuple[int | str, ...]) -> tuple[str, ...]:
    """A setting's path: its keys, without list indexes or the names pydantic gives the arms of a union
    ("literal['*']", "list[str]")."""
    return tuple(str(p) for p in loc if not isinstance(p, int) and not any(c in str(p) for c in "[]'(),"))


def _either(messages: list[str]) -> str:
    """One message for the arms of a union that all refused a value: "Input should be '*' or a valid list"."""
    unique = list(dict.fromkeys(messages))
    lead = "Input should be "
    if len(unique) > 1 and all(m.startswith(lead) for m in unique):
        return lead + " or ".join(m[len(lead):] for m in unique)
    return unique[0]


def _did_you_mean(loc: tuple[int | str, ...]) -> str:
    """The settings next to a mistyped key (a nested model forbids unknown keys), the closest one first."""
    model: type[BaseModel] = Settings
    keyed = False  # the part after a mapping field is a key of it (a channel id), not a field
    for part in loc[:-1]:
        if keyed:
            keyed = False
            continue
        field = model.model_fields.get(str(part))
        kind = field.annotation if field is not None else None
        if get_origin(kind) is dict:
            kind, keyed = get_args(kind)[1], True
        if not (isinstance(kind, type) and issubclass(kind, BaseModel)):
            return ""
        model = kind
    prefix = "RLARK_BOT_" + "".join(f"{p}__" for p in loc[:-1]).upper()
    known = list(model.model_fields)
    close = difflib.get_close_matches(str(loc[-1]), known, n=1)
    if close:
        return f" (did you mean {prefix}{close[0].upper()}?)"
    return f" (known: {', '.join(prefix + k.upper() for k in known)})"


def _holding_not_json(variable: str) -> str:
    """The variable holding the value that is not JSON: the field's own, or one of its nested keys' (a list or a
    mapping under RLARK_BOT_REDACTION__EXTRA_PATTERNS is read as JSON too)."""
    for key, value in sorted(os.environ.items()):
        if key.upper().startswith(variable + "__") and value:
            try:
                json.loads(value)
            except ValueError:
                return key.upper()
    return variable
