"""The worker plugin of a cluster host: its grading server (server.py), and what the server showed.

Registered by name from the instructor's process (dask_hosts.py), so that registering it again,
for another assignment, replaces the previous server on every worker."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

from distributed import WorkerPlugin, get_worker

from autograder.cluster import ClusterError, server

PLUGIN = "autograder-grading-host"


class GradingHost(WorkerPlugin):
    """The host's grading server, started once per worker when the plugin is registered, and the
    facts it showed (server.host_facts, after its self-check) or why it did not start."""

    def __init__(self, assignment_id: str, course_file: str, release_text: str):
        self.assignment_id, self.course_file, self.release_text = assignment_id, course_file, release_text
        self.facts: dict | str = "the grading server has not started"
        self._server = None  # made on the worker, in setup: neither of these travels with the plugin
        self._lock = None
        self.graded = 0  # submissions this host graded since the plugin was registered

    async def setup(self, worker) -> None:
        self._lock = threading.Lock()
        await asyncio.get_running_loop().run_in_executor(None, self._start)

    def teardown(self, worker) -> None:
        self._stop()

    def _start(self) -> None:
        from autograder.course import DEFAULT_COURSE_FILE

        # The instructor's course.yml where hosts share a file system, else this host's own copy:
        # admission compares hashes, so either way the suite graded is the one checked.
        course_file = self.course_file if Path(self.course_file).is_file() else str(DEFAULT_COURSE_FILE)
        try:
            self._server = subprocess.Popen([sys.executable, "-m", "autograder.cluster.server", self.assignment_id,
                                             course_file], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            server.send(self._server.stdin, self.release_text)
            self.facts = server.receive(self._server.stdout)
        except (OSError, EOFError) as error:
            self.facts = f"the grading server did not start ({type(error).__name__}: {error}); see the worker's log"

    def _stop(self) -> None:
        if self._server is not None:
            self._server.stdin.close()
            try:
                self._server.wait(30)
            except subprocess.TimeoutExpired:
                self._server.kill()
            self._server = None

    def grade(self, name: str, files: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:
        with self._lock:  # one submission at a time per host server; Dask's threads queue here
            if self._server is None:
                raise ClusterError("this host's grading server is not running")
            server.send(self._server.stdin, (name, files))
            try:
                graded = server.receive(self._server.stdout)
                self.graded += 1
                return graded
            except EOFError:
                self._server = None
                raise ClusterError("this host's grading server died while grading") from None


def grade_on_this_host(name: str, files: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:
    """The task: runs in a Dask worker, and hands the submission to the host's grading server."""
    return get_worker().plugins[PLUGIN].grade(name, files)
