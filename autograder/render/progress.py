"""A progress bar for a batch, on stderr: done/total, elapsed time and time left.

On a terminal it redraws one line; in a log (CI, a file) it prints a line at every
tenth of the batch instead, so logs stay short and readable.
"""

from __future__ import annotations

import sys
import time


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 else \
        f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    def __init__(self, total: int, label: str = "grading", stream=None, width: int = 30):
        self.total, self.label, self.width = total, label, width
        self.stream = stream or sys.stderr
        self.done = 0
        self.problems = 0
        self.started = time.monotonic()
        self.live = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last_logged = -1

    def eta(self) -> float | None:
        """Seconds left at the rate seen so far (None before the first result)."""
        if self.done == 0:
            return None
        return (time.monotonic() - self.started) / self.done * (self.total - self.done)

    def line(self) -> str:
        filled = self.width * self.done // max(1, self.total)
        bar = "█" * filled + "·" * (self.width - filled)
        eta = self.eta()
        left = "--:--" if eta is None else _clock(eta)
        problems = f"  {self.problems} not loadable" if self.problems else ""
        return (f"{self.label} [{bar}] {self.done}/{self.total}  "
                f"elapsed {_clock(time.monotonic() - self.started)}  left {left}{problems}")

    def advance(self, result=None) -> None:
        self.done += 1
        if result is not None and result.error_student:
            self.problems += 1
        if self.live:
            self.stream.write("\r" + self.line() + ("\n" if self.done == self.total else ""))
            self.stream.flush()
        else:
            tenth = self.done * 10 // max(1, self.total)
            if tenth != self._last_logged or self.done == self.total:
                self._last_logged = tenth
                print(self.line(), file=self.stream, flush=True)
