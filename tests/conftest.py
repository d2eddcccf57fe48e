"""Shared by every test: nothing fails for being slow on a loaded machine.

* httpx's own default gives a request 5 s; the server and browser tests make plain ``httpx.get`` and
  ``httpx.post`` calls to real servers that share two cores with the rest of the suite. A request
  that is merely slow must not fail a test: each waits up to a minute unless it names its own timeout.
* One TLS context for the whole session: httpx builds a new one for every ``httpx.get``/``post`` call,
  ``httpx.Client`` and transport that does not name its own (loading the CA bundle each time: about
  20 ms of CPU), and the tests make thousands of such calls, many of them polls. The context made once
  is the very one httpx makes (``httpx.create_ssl_context()``: the same CA bundle and checks); a call
  that names its own ``verify`` keeps it.
* Hypothesis: no per-example deadline and no "too slow" health check by default (a property that
  asks for them says so in its own ``settings``).
* The slowest directories run first, and the browser tests last (see ``RUN_LAST``). pytest-xdist
  (``scripts/test`` runs ``-n 3``) hands the tests out in collection order; longest first, the run
  ends on many short tests that keep every worker busy to the end. The order within a directory is
  kept (module- and session-scoped servers are set up once per module as before).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("parlor", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("parlor")

HTTP_PATIENCE = 60.0

# The directories under tests/ ("*.py": the files directly in it) from the one whose tests take
# longest to the one whose tests are shortest (what is not named runs after them, in its own order):
# the per-directory ``pytest --durations`` figures in docs/benchmarks.md, "Test suite time".
SLOWEST_FIRST = ("server", "bots", "review", "rl", "analysis", "*.py")
# ... except the browser tests, which run last all the same: Playwright's sync API keeps an event loop
# running in its worker from its first test to the end of the session (a test that needs a loop of its
# own runs it in a thread, ``helpers.run_coroutine``, so no test depends on this order any more).
RUN_LAST = "web"


@pytest.hookimpl(trylast=True)  # after pytest's own reordering, which groups tests by their fixtures
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = Path(__file__).resolve().parent

    def rank(item: pytest.Item) -> int:
        if not item.path.is_relative_to(tests):  # a test outside tests/ named on the command line
            return len(SLOWEST_FIRST)
        parts = item.path.relative_to(tests).parts
        top = parts[0] if len(parts) > 1 else "*.py"
        if top == RUN_LAST:
            return len(SLOWEST_FIRST) + 1
        return SLOWEST_FIRST.index(top) if top in SLOWEST_FIRST else len(SLOWEST_FIRST)

    items.sort(key=rank)  # a stable sort: the order within each directory stays


@pytest.fixture(autouse=True, scope="session")
def patient_http() -> Iterator[None]:
    tls = httpx.create_ssl_context()  # what httpx makes for ``verify=True``, made once (see above)

    def shared_tls(init: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(init)
        def with_shared_tls(self: Any, *args: Any, **kwargs: Any) -> None:
            if not args and kwargs.get("verify", True) is True and kwargs.get("cert") is None:
                kwargs["verify"] = tls
            init(self, *args, **kwargs)

        return with_shared_tls

    with pytest.MonkeyPatch.context() as patch:
        for name in ("get", "post", "put", "delete", "request"):
            patch.setattr(httpx, name, functools.partial(getattr(httpx, name), timeout=HTTP_PATIENCE, verify=tls))
        # A client's transport (its own or one passed in): ``httpx.Client`` hands it ``verify=True`` by default.
        for transport in (httpx.HTTPTransport, httpx.AsyncHTTPTransport):
            patch.setattr(transport, "__init__", shared_tls(transport.__init__))
        yield
