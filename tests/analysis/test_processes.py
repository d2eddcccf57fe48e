"""Pool workers end with the process that started them (parlor.analysis.processes)."""

from __future__ import annotations

import subprocess
import sys

# A worker that watches the parent it is told of (exit 3 if it cannot), then would idle for ten minutes.
WORKER = (
    "import sys, time\n"
    "from parlor.analysis.processes import exit_with_parent\n"
    "try:\n"
    "    exit_with_parent(int(sys.argv[1]))\n"
    "except BaseException:\n"
    "    sys.exit(3)\n"
    "time.sleep(600)\n"
)


def test_a_worker_whose_parent_died_before_it_started_watching_ends() -> None:
    """The parent killed between starting a worker and the worker's first look at it: the worker's
    parent is by then whoever adopted it, and it must not watch that one instead (it would outlive
    its parent: seen once on a busy machine). The parent named at start is gone, so it ends at once
    (exit 1), not after its ten minutes."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    worker = subprocess.run([sys.executable, "-c", WORKER, str(gone.pid)], timeout=300)
    assert worker.returncode == 1
