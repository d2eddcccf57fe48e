"""Worker processes that end with the process that started them.

A pool's workers outlive a parent that is killed outright (SIGKILL, the out-of-memory killer, a CI
timeout): nothing tells them, and a worker busy with a long task (a judged game takes minutes) keeps
a core for nothing until it finishes. ``exit_with_parent`` is a pool initializer that watches the
parent from a daemon thread and ends the worker once the parent is gone. (Linux's
``prctl(PR_SET_PDEATHSIG)`` does this without a thread, but not on macOS or for a parent's other
threads; a one-second look at ``os.getppid`` works everywhere and costs nothing measurable.)
"""

from __future__ import annotations

import os
import threading
import time

WATCH_SECONDS = 1.0  # how often a worker looks for its parent


def exit_with_parent(parent: int | None = None) -> None:
    """Pool initializer: end this worker (exit code 1, no clean-up) once ``parent`` has died (it is
    then adopted by another process, so ``os.getppid()`` changes).

    Name the parent (``initargs=(os.getpid(),)``): a worker asks for its parent's pid only once it
    runs, and a parent killed between starting it and then is already gone, so the worker would
    take its new parent (the reaper) for the one to watch, and outlive it. (Seen on a busy machine:
    a worker forked just before its parent was killed lived on.) Without one, the parent is the
    worker's parent when it runs this."""
    if parent is None:
        parent = os.getppid()
    watched = parent

    def watch() -> None:
        while os.getppid() == watched:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
