"""Shared by every test: nothing fails for being slow on a loaded machine.

* httpx's own default gives a request 5 s; the server and browser tests make plain ``httpx.get`` and
  ``httpx.post`` calls to real servers that share two cores with the rest of the suite. A request
  that is merely slow must not fail a test: each waits up to a minute unless it names its own timeout.
* Hypothesis: no per-example deadline and no "too slow" health check by default (a property that
  asks for them says so in its own ``settings``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import httpx
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("parlor", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("parlor")

HTTP_PATIENCE = 60.0


@pytest.fixture(autouse=True, scope="session")
def patient_http() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        for name in ("get", "post", "put", "delete", "request"):
            patch.setattr(httpx, name, functools.partial(getattr(httpx, name), timeout=HTTP_PATIENCE))
        yield
