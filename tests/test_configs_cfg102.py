"""Helper cfg102 (session 25, issue 24): round 99m's misses read after its measurement (fixtures/configs/round99m/
README.md, "Read after its measurement"), each mechanism with variants of our own, none of them a file of the set."""

from __future__ import annotations

from pathlib import Path

import configs_corpus  # noqa: F401  (puts benchmarks/ on the path)
import configs_repo_layout as layout


def _pasted(root: Path, flat: str, source: str, text: str) -> Path:
    p = root / flat
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    p.with_name(p.name + ".expect.toml").write_text(f'source = "{source}"\ntrainer = "none"\n', encoding="utf-8")
    return p


def test_a_threads_files_go_together_in_a_folder_of_their_own(tmp_path):
    """--layout repo: a text pasted in a thread has no path in a repository; the files of one thread sit together
    (a launch line beside the config pasted under it), apart from another thread's and from any repository's."""
    sets, into = tmp_path / "set", tmp_path / "tree"
    launch = _pasted(sets, "ms-swift/alice__tool__7__sft.sh", "alice/tool#7", "swift sft --config x.yaml\n")
    config = _pasted(sets, "none/alice__tool__7__x.yaml", "alice/tool#7", "a: 1\n")
    other = _pasted(sets, "none/alice__tool__8__x.yaml", "alice/tool#8", "b: 2\n")
    where = layout.repository_layout([launch, config, other], sets, into)
    assert {p.name: d.relative_to(into).as_posix() for p, d in where.items()} == {
        launch.name: "_threads/alice__tool__7/sft.sh", config.name: "_threads/alice__tool__7/x.yaml",
        other.name: "_threads/alice__tool__8/x.yaml"}
    assert where[config].read_text() == "a: 1\n"


def test_thread_path_takes_threads_only():
    assert layout.thread_path("alice/tool#7", "alice__tool__7__run.sh") == "_threads/alice__tool__7/run.sh"
    assert layout.thread_path("alice/tool#7", "run.sh") == "_threads/alice__tool__7/run.sh"
    assert layout.thread_path("alice/tool:run.sh", "alice__tool__run.sh") is None
    assert layout.thread_path("alice/tool#x", "a.sh") is None and layout.thread_path("tool#7", "a.sh") is None
