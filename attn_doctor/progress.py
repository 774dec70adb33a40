"""A one-line progress display on stderr, only when stderr is a terminal."""

from __future__ import annotations

import sys


class Progress:
    def __init__(self, enabled: bool = True):
        self.enabled = enabled and sys.stderr.isatty()
        self._status = None

    def __enter__(self):
        if self.enabled:
            from rich.console import Console

            self._status = Console(stderr=True).status("")
            self._status.__enter__()
        return self

    def update(self, text: str) -> None:
        if self._status is not None:
            self._status.update(text)

    def __exit__(self, *exc):
        if self._status is not None:
            self._status.__exit__(*exc)
        return False
