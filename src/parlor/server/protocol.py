"""What every part of the hub shares: the protocol's refusal and the compact JSON it sends."""

from __future__ import annotations

import json
from typing import Any


class ServerError(Exception):
    """A refusal with a protocol error code (see docs/protocol.md)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
