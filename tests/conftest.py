"""Shared fixtures for the project's own tests (not the hidden suites)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import time

import pytest
from hypothesis import settings

import browser
from autograder.course import load_course
from autograder.sandbox import launcher

# A new assignment's files, added to a copy of the course by test_authoring.py: its hidden suite is
# course content, run by the grader, not one of the project's tests.
collect_ignore = ["authoring_example"]

# The project's own property tests: reproducible in CI, nothing written to the work tree.
settings.register_profile("project", derandomize=True, database=None, deadline=None)
settings.load_profile("project")


def pytest_xdist_auto_num_workers(config):
    """`--numprocesses auto` (pyproject's addopts): one test process per usable core, and one more.
    On the 2-core machine with one core kept busy, the whole run took 635-639 s on two processes,
    582 s on three and 583 s on four (bench/README.md, "Issue 28, sixth stop")."""
    return len(os.sched_getaffinity(0)) + 1


CI_VARIABLES = ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT")

# Where the grader would refuse to run student code (an ordinary user without namespaces), the
# tests still grade the project's own samples, which are ours: they opt in, and the hostile corpus
# is not run there (tests/test_hostile.py skips). CI and a root or namespaced machine never get here.
UNSANDBOXED = launcher.refusal() is not None
if UNSANDBOXED:
    os.environ[launcher.INSECURE_OPT_IN] = "1"


def pytest_report_header(config):
    if UNSANDBOXED:
        return ("sandbox: no namespaces and not root: the project's own samples are graded without one, "
                "and the hostile corpus is skipped")
    return None


@pytest.fixture(autouse=True)
def outside_ci(monkeypatch):
    """Every test starts as on a laptop, CI or not; the CI-mode tests set these variables themselves."""
    for name in CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def course():
    return load_course()


@pytest.fixture(scope="session")
def bpe_bytes(course):
    return course.assignment("bpe_bytes")


@pytest.fixture(scope="session")
def fast_bpe_bytes(bpe_bytes):
    """bpe_bytes with short time limits, so hanging samples cost seconds, not minutes."""
    limits = dataclasses.replace(bpe_bytes.limits, call_seconds=3, load_seconds=10, submission_seconds=60)
    return dataclasses.replace(bpe_bytes, limits=limits)


# --- a loaded machine ------------------------------------------------------------------------

@pytest.fixture()
def cpu_hogs():
    """Every core busy twice over, each hog in a session of its own as separate jobs are (the kernel
    shares CPUs fairly between sessions)."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            for _ in range(2 * (os.cpu_count() or 1))]
    time.sleep(0.5)
    yield
    for hog in hogs:
        hog.kill()
        hog.wait()



# --- a real browser, for the HTML pages ---------------------------------------------------

@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the session; skipped (not failed) where it is not installed."""
    path = browser.executable()
    if path is None:
        pytest.skip("chromium not installed: .ci/run installs it with apt-get")
    try:
        instance = browser.Browser(path)
    except (browser.BrowserError, OSError) as error:
        pytest.skip(f"chromium is installed but could not be started: {error}")
    yield instance
    instance.close()


@pytest.fixture
def tab(chromium):
    page = chromium.new_page()
    page.set_viewport(1000, 800)
    yield page
    page.close()
