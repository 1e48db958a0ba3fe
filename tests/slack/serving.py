"""How the Slack stand-in answers one HTTP request: route, parse, record, delay, fault, then run the method.

Routes: `POST|GET /api/<method>` (the Web API), `POST /upload/<file_id>` (the upload URLs handed out by
`files.getUploadURLExternal`) and `POST /response/<id>` (response URLs). Web API answers are JSON with HTTP
200, `ok: false` and Slack's error string on failure, as Slack answers them.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from .limits import ApiError
from .model import Call, Obj
from .workspace import APP_TOKEN_METHODS, METHODS, decode_params

if TYPE_CHECKING:
    from .standin import SlackStandIn

UPLOAD = "upload"  # the Call.method of a POST to an upload URL
RESPONSE = "response_url"  # the Call.method of a POST to a response URL
ANY = "*"


@dataclass
class Fault:
    """Scripted failure of `method` (or `*`): an HTTP status, an `ok: false` error, or a dropped connection."""

    method: str
    status: int | None = None
    error: str | None = None
    retry_after: int | None = None
    drop: bool = False
    times: int | None = 1  # None: every matching call


@dataclass
class Delay:
    """Answer calls of `method` (or `*`) only after `seconds`; `times` None: every call. `released` (set by
    `SlackStandIn.release`): the held calls are answered at once, and later ones are not held."""

    method: str
    seconds: float
    times: int | None = None
    released: bool = False
    taken: bool = False  # the call takes effect at once and only its answer is late (Slack slow to answer)


def parse_body(content_type: str, body: bytes, query: str) -> Obj:
    """Query string and body merged, as Slack reads them: a JSON object, or a urlencoded form."""
    params: Obj = dict(parse_qsl(query, keep_blank_values=True))
    if not body:
        return params
    if content_type.split(";")[0].strip().lower() == "application/json":
        decoded = json.loads(body.decode("utf-8"))
        if not isinstance(decoded, dict):
            raise ValueError("a JSON body must be an object")
        params.update(decoded)
    else:
        params.update(parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=True))
    return params


def _bearer(headers: dict[str, str]) -> str | None:
    scheme, _, token = headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _send(req: BaseHTTPRequestHandler, status: int, body: Obj | str, headers: dict[str, str] | None = None) -> None:
    payload = (json.dumps(body) if isinstance(body, dict) else body).encode("utf-8")
    req.send_response(status)
    kind = "application/json; charset=utf-8" if isinstance(body, dict) else "text/plain; charset=utf-8"
    req.send_header("Content-Type", kind)
    req.send_header("Content-Length", str(len(payload)))
    for name, value in (headers or {}).items():
        req.send_header(name, value)
    req.end_headers()
    req.wfile.write(payload)


def _take(standin: SlackStandIn, items: list[Any], method: str) -> Any:
    """The first fault or delay for `method` still armed, counting it down."""
    with standin.cond:
        for item in items:
            if item.method in (method, ANY) and (item.times is None or item.times > 0):
                if item.times is not None:
                    item.times -= 1
                return item
    return None


def _hold(standin: SlackStandIn, delay: Delay) -> None:
    with standin.cond:
        standin.cond.wait_for(lambda: delay.released or standin.stopping.is_set(), delay.seconds)


def _finish(standin: SlackStandIn, call: Call, status: int, body: Obj | str | None) -> None:
    with standin.cond:
        call.status = status
        if isinstance(body, dict):
            call.response = body
            if body.get("ok") is False:
                call.error = str(body.get("error"))
        elif status != 200 and body is not None:
            call.error = body
        standin.cond.notify_all()


def _fault_answer(fault: Fault) -> tuple[int, Obj, dict[str, str]]:
    status = fault.status or 200
    error = fault.error or ("ratelimited" if status == 429 else "internal_error")
    headers = {} if fault.retry_after is None else {"Retry-After": str(fault.retry_after)}
    return status, {"ok": False, "error": error}, headers


def _web_api(standin: SlackStandIn, call: Call) -> Obj:
    """Run one Web API method against the workspace; the JSON body of the answer."""
    method = METHODS.get(call.method)
    if method is None:
        return {"ok": False, "error": "unknown_method"}
    if not call.token:
        return {"ok": False, "error": "not_authed"}
    expected = standin.app_token if call.method in APP_TOKEN_METHODS else standin.token
    if call.token != expected:
        known = call.token in (standin.token, standin.app_token)
        return {"ok": False, "error": "not_allowed_token_type" if known else "invalid_auth"}
    with standin.cond:
        try:
            return {"ok": True, **method(standin.model, call.params)}
        except ApiError as e:
            return e.body()
        except (AttributeError, KeyError, TypeError, ValueError) as e:  # parameters of a shape Slack would refuse
            return ApiError("invalid_arguments", [f"{type(e).__name__}: {e}"]).body()


def _upload(standin: SlackStandIn, file_id: str, content: bytes) -> tuple[int, str]:
    with standin.cond:
        file = standin.model.files.get(file_id)
        if file is None or file.content is not None:
            return 404, "file_not_found"
        file.content = content
    return 200, f"OK - {len(content)}"


def _respond(standin: SlackStandIn, hook_id: str, body: Obj) -> tuple[int, str]:
    with standin.cond:
        hook = standin.model.responses.get(hook_id)
        if hook is None:
            return 404, "no_service"
        hook.posts.append(body)  # as decoded from the request, before it is applied
        try:
            standin.model.respond(hook, body)
        except ApiError as e:
            return 400, e.error
        except (AttributeError, KeyError, TypeError, ValueError):
            return 400, "invalid_arguments"
    return 200, "ok"


def _parse(kind: str, name: str, headers: dict[str, str], body: bytes, query: str) -> Obj:
    if kind == "api":
        return parse_body(headers.get("content-type", ""), body, query)
    if kind == "response":
        decoded = json.loads(body.decode("utf-8")) if body else {}
        if not isinstance(decoded, dict):
            raise ValueError("a response URL takes a JSON object")
        return decoded
    return {"file_id": name}


def serve_request(standin: SlackStandIn, req: BaseHTTPRequestHandler) -> None:
    """Answer one request to the stand-in, recording it as a `Call` before anything else happens."""
    url = urlsplit(req.path)
    kind, _, name = url.path.strip("/").partition("/")
    length = int(req.headers.get("Content-Length") or 0)
    body = req.rfile.read(length) if length > 0 else b""
    if kind not in ("api", UPLOAD, "response") or not name or "/" in name:
        _send(req, 404, "not_found")
        return
    method = name if kind == "api" else UPLOAD if kind == UPLOAD else RESPONSE
    headers = {k.lower(): v for k, v in req.headers.items()}
    refusal: ApiError | None = None
    try:
        params = _parse(kind, name, headers, body, url.query)
    except (ValueError, UnicodeDecodeError):
        params = {}
        refusal = ApiError("invalid_json" if "json" in headers.get("content-type", "") else "invalid_form_data")
    try:
        params = decode_params(params)
    except ApiError as e:  # recorded as sent, refused as Slack refuses it
        refusal = e
    token = _bearer(headers) or (params.pop("token", None) if kind == "api" else None)
    call = Call(method=method, params=params, headers=headers, at=time.monotonic(), wall=time.time(),
                token=token, body=body)
    with standin.cond:
        standin.log.append(call)
        standin.cond.notify_all()
    delay = _take(standin, standin.delays, method)
    if delay is not None and not delay.taken:
        _hold(standin, delay)
    fault: Fault | None = _take(standin, standin.faults, method)
    status: int
    answer: Obj | str
    extra: dict[str, str] = {}
    if fault is not None and fault.drop:
        _finish(standin, call, -1, None)
        req.close_connection = True
        return
    if fault is not None:
        status, answer, extra = _fault_answer(fault)
    elif refusal is not None:
        status, answer = (200, refusal.body()) if kind == "api" else (400, refusal.error)
    elif kind == "api":
        status, answer = 200, _web_api(standin, call)
    elif kind == UPLOAD:
        status, answer = _upload(standin, name, body)
    else:
        status, answer = _respond(standin, name, params)
    if delay is not None and delay.taken:
        _hold(standin, delay)
    _finish(standin, call, status, answer)  # before the answer leaves, so a test that got it sees it recorded
    _send(req, status, answer, extra)
