"""The error messages each backend raises in its own source, as data (knowledge/messages/*.toml).

A message a backend's code raises (a TORCH_CHECK in flash-attention's csrc, an assert in SageAttention's
core.py, a NotImplementedError reason in xformers' dispatch, a ValueError in torch's flex_attention.py)
names that backend wherever it shows up: in a user's paste with no traceback, in a title, behind another
library's wrapper. Read from the backends' sources at a commit (each file says which), not from users'
reports, so a message nobody has reported yet is known too.

Each file:

    backend = "fa2"                        # attn-doctor's name for whose code raises them
    source = "github:Dao-AILab/flash-attention"
    commit = "<40 hex>"                    # the snapshot read
    read = "2026-11-28"
    [[message]]
    text = "FlashAttention only supports Ampere GPUs or newer."   # as the source spells it; {} where the
    where = "csrc/flash_attn/flash_api.cpp:364"                  # code formats a value in (any text)

Used twice: attribution/ takes every message as a name of its backend (the line that holds it is that
backend's), and the last resort `triage.backend-message` (triage.toml) claims an error line that is one
of them when no known cause explains it. tests/test_explain_messages.py keeps the data honest: each text
is distinctive (no message any other backend or torch itself prints), and each is explained as its
backend's message unless a specific entry already knows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

HERE = Path(__file__).parent / "messages"
HOLE = "{}"
HOLE_MAX = 512  # characters a {} before a literal part may stand for (Message.pattern)
FILL = "7"  # what an example puts where the code formats a value


@dataclass(frozen=True)
class Message:
    backend: str
    text: str  # as the source spells it, {} for a formatted value
    where: str  # file:line in the source
    file: str  # the messages/*.toml it came from

    @property
    def pattern(self) -> str:
        """The message as a regex: its literal parts in order, any text of one line for each {}. Each {} before a literal
        part reads up to that part's first occurrence and not past it (the first occurrence is the one a match uses:
        if the rest fails after it, it fails after any later one), so that a failed search does not try every split of
        the line between several {} (a message with three of them was cubic in the line's length). A message that
        starts with a {} is anchored at a line's start (the same match): unanchored, every position of a long line would
        scan the rest of it. A {} before a literal part reads at most HOLE_MAX characters: unbounded, a line that repeats
        the message's start without its end (a JSON dump on one line) made each start scan the rest of the line, quadratic
        in its length (tests/test_review_rv6.py measures the growth); a backend's value (a shape, a dtype, a path) is
        shorter."""
        parts = self.text.split(HOLE)
        out = re.escape(parts[0])
        for k, part in enumerate(parts[1:], 1):
            if not part and k < len(parts) - 1:
                continue  # `{}{}`: one stretch of text
            out += rf"(?:(?!{re.escape(part)})[^\n]){{0,{HOLE_MAX}}}?" + re.escape(part) if part else r"[^\n]*?"
        return "^" + out if self.text.startswith(HOLE) else out

    @property
    def example(self) -> str:
        return self.text.replace(HOLE, FILL)


@lru_cache(maxsize=1)
def messages() -> tuple[Message, ...]:
    out = []
    for path in sorted(HERE.glob("*.toml")):
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        backend = data["backend"]
        for m in data.get("message", []):
            out.append(Message(backend, m["text"], m.get("where", ""), path.name))
    return tuple(out)
