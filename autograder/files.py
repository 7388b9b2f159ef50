"""Files written whole: whoever reads one, and a run stopped halfway (Ctrl-C, `kill`, a
cancelled CI job), sees the old file or the new one, never half of one."""

from __future__ import annotations

from pathlib import Path


def write_atomically(path: Path, data: str | bytes) -> Path:
    """Write `data` (text as UTF-8) next to `path`, then rename it into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    if isinstance(data, str):
        partial.write_text(data, encoding="utf-8")
    else:
        partial.write_bytes(data)
    partial.replace(path)
    return path
