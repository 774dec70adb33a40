"""A live progress display on stderr, only when stderr is a terminal: what is being probed, and
each backend's smoke cases as they finish."""

from __future__ import annotations

import sys
import threading


class Progress:
    def __init__(self, enabled: bool = True):
        self.enabled = enabled and sys.stderr.isatty()
        self._live = None
        self._lock = threading.Lock()
        self._stage = ""
        self._rows: dict[tuple[str, str], str] = {}

    def __enter__(self):
        if self.enabled:
            from rich.console import Console
            from rich.live import Live

            self._live = Live(self._render(), console=Console(stderr=True), refresh_per_second=4, transient=True)
            self._live.__enter__()
        return self

    def _render(self):
        from rich.spinner import Spinner
        from rich.table import Table

        grid = Table.grid(padding=(0, 1))
        grid.add_row(Spinner("dots"), self._stage)
        for (name, dev), text in sorted(self._rows.items()):
            grid.add_row("", f"{name:<9} {dev:<4} {text}")
        return grid

    def update(self, text: str) -> None:
        with self._lock:
            self._stage = text
            if self._live:
                self._live.update(self._render())

    def backend(self, name: str, dev: str, done: int, total: int, current: str | None) -> None:
        with self._lock:
            self._rows[(name, dev)] = f"{done}/{total}" + (f"  {current}" if current else "")
            if self._live:
                self._live.update(self._render())

    def __exit__(self, *exc):
        if self._live is not None:
            self._live.__exit__(*exc)
        return False
