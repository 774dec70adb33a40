"""The messages the backends' own sources raise (knowledge/messages/*.toml, issue 23): the data is honest,
and explain names the backend of an error line that is one of them.

Each message was read from a backend's source at the commit its file names, not from a user's report; the
checks here hold every file to that: its backend is one of the seven, it says where it read each message,
each text is distinctive enough to name its backend alone (a long literal part; no text two backends
share), and each is explained as that backend's (by a specific entry that knows it, or by the last resort
triage.backend-message).
"""

from __future__ import annotations

import re

import pytest
from each_case import each

from attn_doctor.explain import match
from attn_doctor.knowledge import entries
from attn_doctor.knowledge.messages import HERE, HOLE, messages
from attn_doctor.model import BACKENDS

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

FILES = sorted(HERE.glob("*.toml"))
ALL = messages()
# (backend:text, (message,)): the two per-message checks below are one test each over every message, each failing one
# named as its pytest item was (not ~300 items each: tests/each_case.py says why)
CASES = [(f"{m.backend}:{m.text[:50]}", (m,)) for m in ALL]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_messages_file_says_what_it_was_read_from(path):
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["backend"] in BACKENDS
    assert data["source"].startswith("github:")
    assert re.fullmatch(r"[0-9a-f]{40}", data["commit"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", data["read"])
    assert data.get("message"), "a file with no messages"


def test_a_message_is_distinctive_and_says_where_it_is_raised():
    each(CASES, _message_is_distinctive_and_says_where_it_is_raised)


def _message_is_distinctive_and_says_where_it_is_raised(m):
    parts = [p.strip() for p in m.text.split(HOLE)]
    assert max(map(len, parts)) >= 12, "too short to name a backend alone"
    assert sum(map(len, parts)) >= 20
    assert "\n" not in m.text
    assert re.search(r"\S+:\d+$", m.where), "file:line in the source"


def test_no_text_is_two_backends_message():
    seen = {}
    for m in ALL:
        seen.setdefault(m.text.lower(), set()).add(m.backend)
    assert {t: b for t, b in seen.items() if len(b) > 1} == {}


def test_a_message_is_explained_as_its_backends():
    each(CASES, _message_is_explained_as_its_backends)


def _message_is_explained_as_its_backends(m):
    found = match(m.example)
    assert found, m.example
    assert found[0].backend == m.backend, (found[0].entry.id, found[0].backend)


def test_the_last_resort_takes_its_patterns_from_the_messages():
    e = entries()["triage.backend-message"]
    assert e.fallback and e.generic
    assert len(e.patterns) == len({m.pattern for m in ALL})
