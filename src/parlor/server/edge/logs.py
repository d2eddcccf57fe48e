"""Keeping secrets out of the logs: uvicorn logs every request's path with its query string, and a
client may put a token under any name there (``?token=``, ``?token[]=``, ``?tok=``)."""

from __future__ import annotations

import logging
import re

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
