"""The server's logs. Keeping secrets out of them: uvicorn logs every request's path with its query
string, and a client may put a token under any name there (``?token=``, ``?token[]=``, ``?tok=``).
With ``--log-format json``: one JSON object per line (:class:`JsonFormatter`), and a line per request
(:class:`AccessLogMiddleware`); nothing in a line holds a cookie, password, session or seat token."""

from __future__ import annotations

import json
import logging
import re
import time
from datetime import UTC, datetime
from typing import Any

# Every value of a query string, whatever its name: the server needs none of them in a log.
_QUERY_VALUE = re.compile(r"([?&][^=&\s\"'#]*=)[^&\s\"'#]*")
# A run of 32 or more URL-safe characters anywhere (a token, a claim code, the relay key are 32 to 43
# of them; a table id 12): redacted by its shape, wherever a client put it (a path, a header).
_TOKEN_SHAPED = re.compile(r"[A-Za-z0-9_-]{32,}")


def redact(text: str) -> str:
    """``/ws/tables/x?token=abc&tok=…`` -> ``/ws/tables/x?token=[redacted]&tok=[redacted]``, and any
    token-shaped run of characters -> ``[redacted]``."""
    if "=" in text:
        text = _QUERY_VALUE.sub(r"\1[redacted]", text)
    return _TOKEN_SHAPED.sub("[redacted]", text)


class _RedactSecrets(logging.Filter):
    """Rewrites a record's arguments so that no seat token reaches a log (uvicorn logs full paths)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


_FILTER = _RedactSecrets()


def install_log_redaction() -> None:
    """On uvicorn's access and error loggers (the WebSocket "[accepted]" lines go to the latter)."""
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn", "parlor.server"):
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


# ---------------------------------------------------------------------------- JSON lines
# Hand-written rather than python-json-logger: one json.dumps of a few fields per record, and every
# field must pass through ``redact`` first, which a generic formatter would not do.
REQUEST_FIELDS = ("method", "path", "status", "client", "duration_ms")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, and a request's fields
    (``method``, ``path`` without its query string, ``status``, ``client``, ``duration_ms``) when the
    record has them; an exception as ``exception``. Every text is redacted (no token reaches a log)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        for field in REQUEST_FIELDS:
            value = getattr(record, field, None)
            if value is not None:
                out[field] = redact(value) if isinstance(value, str) else value
        if record.exc_info:
            out["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False)


def use_json_logs(level: int) -> None:
    """Every log record of the process (uvicorn's too) as a JSON line on stderr."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    handler.addFilter(_FILTER)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):  # (to the root's one handler)
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    logging.captureWarnings(True)


access_log = logging.getLogger("parlor.access")


class AccessLogMiddleware:
    """With JSON logs: one line per HTTP request and per WebSocket session, with its request fields.
    The path is logged without its query string (where a seat token travels) and redacted."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        started = time.perf_counter()
        status = [500 if scope["type"] == "http" else 101]

        async def watched_send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            elif message["type"] == "websocket.close" and status[0] == 101:
                status[0] = 1000
            await send(message)

        try:
            await self.app(scope, receive, watched_send)
        finally:
            method = scope.get("method", "WEBSOCKET")
            client = scope["client"][0] if scope.get("client") else None
            access_log.info(
                "%s %s %s",
                method,
                redact(scope.get("path", "")),
                status[0],
                extra={
                    "method": method,
                    "path": scope.get("path", ""),
                    "status": status[0],
                    "client": client,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                },
            )
