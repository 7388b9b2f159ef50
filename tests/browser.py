"""A minimal headless-Chromium client for the project's own tests, standard library only.

It speaks the Chrome DevTools Protocol over --remote-debugging-pipe: commands go to the
browser's file descriptor 3 and replies and events come back on its descriptor 4, as JSON
messages ended by a NUL byte. No websocket library, no driver download, no network port.
Every wait has a deadline, so a hung browser fails one test instead of hanging the suite.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

EXECUTABLE = "chromium"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
         "--remote-debugging-pipe")
TIMEOUT = 30.0  # seconds for any one command or wait


class BrowserError(RuntimeError):
    """The browser did not start, answered with an error, or did not answer in time."""


def executable() -> str | None:
    """Debian's chromium, if installed."""
    return shutil.which(EXECUTABLE)


def _above_stdio(fd: int) -> int:
    """A copy of `fd` numbered 5 or more, so moving it to 3 or 4 in the child cannot clobber the other."""
    copy = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 5)
    os.close(fd)
    return copy


class Page:
    """One tab, attached with a flat session: what the tests see of a loaded page."""

    def __init__(self, browser: "Browser", session_id: str, target_id: str):
        self.browser, self.session_id, self.target_id = browser, session_id, target_id
        self.events: list[dict] = []  # every event of this tab, in arrival order

    def send(self, method: str, **params) -> dict:
        return self.browser.send(method, params, session_id=self.session_id)

    def navigate(self, path: Path) -> None:
        """Load a local file and wait for its load event."""
        self.events.clear()
        self.browser.forget(self.session_id)
        reply = self.send("Page.navigate", url=Path(path).resolve().as_uri())
        if reply.get("errorText"):
            raise BrowserError(f"navigation to {path} failed: {reply['errorText']}")
        self.browser.wait_for(lambda event: event.get("sessionId") == self.session_id
                              and event["method"] == "Page.loadEventFired")

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (a JS exception is a BrowserError)."""
        reply = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in reply:
            raise BrowserError(f"{expression!r} threw: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries since the last navigation."""
        found = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                found.append(f"exception: {details.get('exception', {}).get('description') or details.get('text')}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                found.append("console.error: " + " ".join(str(a.get("value", a.get("description")))
                                                          for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}".strip())
        return found

    def requested_urls(self) -> list[str]:
        """Every URL the page asked the network stack for (the page itself included)."""
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]

    def dialogs(self) -> list[str]:
        """alert/confirm/prompt dialogs the page opened: an injected script would show up here."""
        return [e["params"].get("message", "") for e in self.events if e["method"] == "Page.javascriptDialogOpening"]

    def set_viewport(self, width: int, height: int, mobile: bool = False) -> None:
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=mobile)

    def screenshot(self, path: Path) -> Path:
        """A PNG of the whole page, not just the viewport."""
        size = self.send("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 16000), "scale": 1}
        data = self.send("Page.captureScreenshot", format="png", clip=clip, captureBeyondViewport=True)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        self.browser.send("Target.closeTarget", {"targetId": self.target_id})


class Browser:
    """A headless Chromium process with its own throwaway profile."""

    def __init__(self, path: str, timeout: float = TIMEOUT):
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory(prefix="autograder-chromium-", ignore_cleanup_errors=True)
        self.log = open(Path(self.profile.name) / "chromium.log", "wb")  # noqa: SIM115 - closed in close()
        to_child, self._to_browser = os.pipe()
        self._from_browser, from_child = os.pipe()
        to_child, self._to_browser = _above_stdio(to_child), _above_stdio(self._to_browser)
        self._from_browser, from_child = _above_stdio(self._from_browser), _above_stdio(from_child)

        def descriptors_3_and_4():  # in the child, before exec: dup2 makes them inheritable
            os.dup2(to_child, 3)
            os.dup2(from_child, 4)

        try:
            self.process = subprocess.Popen(
                [path, *FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
                stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, close_fds=False,
                preexec_fn=descriptors_3_and_4, start_new_session=True)
        finally:
            os.close(to_child)
            os.close(from_child)
        self._buffer = b""
        self._next_id = 0
        self._pending: list[dict] = []  # events read while waiting for a reply
        self.pages: dict[str, Page] = {}
        try:
            self.version = self.send("Browser.getVersion")["product"]
        except BrowserError:
            self.close()
            raise

    # --- the wire ---------------------------------------------------------------------------

    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BrowserError(f"no answer from chromium in time{self._log_tail()}")
            ready, _, _ = select.select([self._from_browser], [], [], remaining)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise BrowserError(f"chromium closed the pipe (exit {self.process.poll()}){self._log_tail()}")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def _log_tail(self) -> str:
        self.log.flush()
        text = (Path(self.profile.name) / "chromium.log").read_text(errors="replace")[-1500:]
        return f"; its log ends with:\n{text}" if text.strip() else ""

    def _dispatch(self, message: dict) -> None:
        """File an event under its tab, so a page's errors are its own."""
        page = self.pages.get(message.get("sessionId", ""))
        if page is not None:
            page.events.append(message)

    def send(self, method: str, params: dict | None = None, session_id: str | None = None,
             timeout: float | None = None) -> dict:
        """Send one command and wait for its reply; events that arrive meanwhile are kept."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session_id:
            message["sessionId"] = session_id
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._to_browser, data):]
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self._dispatch(reply)
                self._pending.append(reply)

    def forget(self, session_id: str) -> None:
        """Drop a tab's unclaimed events, so a wait after a navigation cannot match an older one."""
        self._pending = [e for e in self._pending if e.get("sessionId") != session_id]

    def wait_for(self, matches) -> dict:
        """The first event (already received or still to come) for which `matches(event)` is true."""
        for index, event in enumerate(self._pending):
            if matches(event):
                del self._pending[: index + 1]
                return event
        self._pending.clear()
        deadline = time.monotonic() + self.timeout
        while True:
            event = self._read_message(deadline)
            if "method" in event:
                self._dispatch(event)
                if matches(event):
                    return event

    # --- tabs and shutdown ------------------------------------------------------------------

    def new_page(self) -> Page:
        """A fresh tab with the domains the checks listen to enabled."""
        target_id = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session_id = self.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})["sessionId"]
        page = self.pages[session_id] = Page(self, session_id, target_id)
        for domain in ("Page", "Runtime", "Log", "Network"):
            page.send(f"{domain}.enable")
        return page

    def close(self) -> None:
        """Ask the browser to quit, then make sure its whole process group is gone."""
        if self.process.poll() is None:
            try:  # a browser that is not answering gets no long wait: it is killed below
                self.send("Browser.close", timeout=5)
                self.process.wait(5)
            except (BrowserError, OSError, subprocess.TimeoutExpired):
                pass
        try:  # the renderer and zygote processes are in the group this Popen started
            os.killpg(self.process.pid, signal.SIGKILL)
        except OSError:
            pass
        self.process.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()
        self.profile.cleanup()
