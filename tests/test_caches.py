"""facts/caches.py on real temporary directories, then the caches checks on what it found."""

from __future__ import annotations

import os
import tempfile

import pytest

import fakefacts as ff
from attn_doctor.facts import caches


def inductor(tmp_path, path) -> dict:
    """Collect the caches with TORCHINDUCTOR_CACHE_DIR=path (a real directory or file) and return
    the facts of the healthy faked H200 box with this real cache answer in place."""
    env = {"TORCHINDUCTOR_CACHE_DIR": str(path), "HOME": str(tmp_path)}
    f = ff.gpu_box()
    f["caches"] = caches.collect(env, "user")
    f["env"]["TORCHINDUCTOR_CACHE_DIR"] = str(path)
    return f


def ids(f) -> list[str]:
    return [x.id for x in ff.check(f).findings if x.section == "caches"]


def test_existing_writable_dir(tmp_path):
    d = tmp_path / "inductor"
    d.mkdir()
    st = caches.state(str(d), caches.mounts())
    assert st["exists"] and st["is_dir"] and st["writable"] and st["free_bytes"] > 0
    assert st["nearest_existing"] == str(d)


def test_file_where_the_dir_should_be(tmp_path):
    p = tmp_path / "inductor"
    p.write_text("not a directory")
    st = caches.state(str(p), [])
    assert st["exists"] and not st["is_dir"] and st["writable"] is False
    assert "cache.not-a-directory" in ids(inductor(tmp_path, p))


def test_dangling_symlink_where_the_dir_should_be(tmp_path):
    p = tmp_path / "inductor"
    os.symlink(tmp_path / "gone", p)
    st = caches.state(str(p), [])
    assert st["exists"] and not st["is_dir"]
    assert "cache.not-a-directory" in ids(inductor(tmp_path, p))


def test_missing_dir_with_a_file_as_parent(tmp_path):
    """The path runs through a regular file: it can never be created, whoever runs the job (root too)."""
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    p = blocker / "inductor"
    st = caches.state(str(p), [])
    assert not st["exists"] and st["creatable"] is False
    assert st["nearest_existing"] == str(blocker)
    assert "cache.uncreatable" in ids(inductor(tmp_path, p))


def test_missing_dir_with_missing_parents_is_creatable(tmp_path):
    p = tmp_path / "a" / "b" / "inductor"
    st = caches.state(str(p), [])
    assert not st["exists"] and st["creatable"] is True and st["nearest_existing"] == str(tmp_path)
    assert {"cache.uncreatable", "cache.unwritable", "cache.not-a-directory"}.isdisjoint(ids(inductor(tmp_path, p)))


def test_unwritable_dir(tmp_path):
    d = tmp_path / "inductor"
    d.mkdir()
    d.chmod(0o500)
    try:
        if os.access(d, os.W_OK):
            pytest.skip("running as root (or with CAP_DAC_OVERRIDE): os.access says a 0500 directory is "
                        "writable, so the unwritable case cannot be produced here; test_findings fakes it")
        st = caches.state(str(d), [])
        assert st["is_dir"] and st["writable"] is False
        assert "cache.unwritable" in ids(inductor(tmp_path, d))
    finally:
        d.chmod(0o700)


def test_uncreatable_under_unwritable_parent(tmp_path):
    parent = tmp_path / "ro"
    parent.mkdir()
    parent.chmod(0o500)
    try:
        if os.access(parent, os.W_OK):
            pytest.skip("running as root: a 0500 parent is writable to us; the file-as-parent case covers uncreatable")
        st = caches.state(str(parent / "inductor"), [])
        assert st["creatable"] is False
    finally:
        parent.chmod(0o700)


def test_under_tmp_is_volatile():
    """The default Inductor cache, <tmpdir>/torchinductor_<user>, is flagged as lost on reboot."""
    env = {"HOME": "/home/user"}
    got = {c["name"]: c for c in caches.collect(env, "user")}

    assert got["inductor"]["path"] == os.path.join(tempfile.gettempdir(), "torchinductor_user")
    assert got["inductor"]["set"] is False
    assert got["triton"]["path"] == os.path.join(got["inductor"]["path"], "triton")
    assert got["inductor"]["under_tmp"] is True  # /tmp or the tempdir: both count


def test_fs_type_picks_the_longest_mount():
    table = [("/", "ext4"), ("/dev/shm", "tmpfs"), ("/dev", "devtmpfs")]
    assert caches.fs_type("/dev/shm/x", table) == ("tmpfs", "/dev/shm")
    assert caches.fs_type("/devices", table) == ("ext4", "/")  # a prefix of the name, not a parent


def test_fa4_cache_resolution():
    env = {"FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED": "true"}
    fa4 = next(c for c in caches.resolve(env, "alice") if c["name"] == "fa4")
    assert fa4["enabled"] is False and fa4["enabled_raw"] == "true"
    assert fa4["path"].endswith(os.path.join("alice", "flash_attention_cute_dsl_cache"))
    fa4 = next(c for c in caches.resolve({"FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED": "1"}, None) if c["name"] == "fa4")
    assert fa4["enabled"] is True and f"uid_{os.getuid()}" in fa4["path"]


# ---- the cache moved (issue 22): the first check after `. ./env.sh` ------------------------------

def moved_box(tmp_path, monkeypatch, old_filled: bool, new_filled: bool) -> dict:
    """REAL directories: the default Inductor cache under a temporary TMPDIR (filled or not with a
    compiled entry), and TORCHINDUCTOR_CACHE_DIR / TRITON_CACHE_DIR where env.sh puts them."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    old = tmp_path / "torchinductor_user"
    if old_filled:
        (old / "fxgraph" / "ab").mkdir(parents=True, exist_ok=True)
        (old / "triton" / "0").mkdir(parents=True, exist_ok=True)
    new = tmp_path / "home" / ".cache" / "torchinductor"
    if new_filled:
        (new / "fxgraph").mkdir(parents=True, exist_ok=True)
    env = {"TORCHINDUCTOR_CACHE_DIR": str(new), "TRITON_CACHE_DIR": str(tmp_path / "home" / ".cache" / "triton"),
           "HOME": str(tmp_path / "home")}
    f = ff.gpu_box()
    f["caches"] = caches.collect(env, "user")
    f["env"].update(env)
    return f


def test_a_moved_cache_is_said_once(tmp_path, monkeypatch):
    f = moved_box(tmp_path, monkeypatch, old_filled=True, new_filled=False)
    hit = next(x for x in ff.check(f).findings if x.id == "cache.moved")
    assert hit.severity == "info" and str(tmp_path / "torchinductor_user") in hit.title
    # TRITON_CACHE_DIR is set too: the Inductor cache without triton/, each device's Triton folder into TRITON_CACHE_DIR
    assert hit.fix.startswith(f'mkdir -p "{tmp_path}/home/.cache/torchinductor" && tar -C "{tmp_path}/torchinductor_user" '
                              '--exclude=./triton ')
    assert f'cp -a "{tmp_path}/torchinductor_user/triton/0"/. "{tmp_path}/home/.cache/triton"/' in hit.fix
    # the run fills the new cache: the next check says nothing
    f = moved_box(tmp_path, monkeypatch, old_filled=True, new_filled=True)
    assert "cache.moved" not in ids(f)


def test_nothing_compiled_before_nothing_said(tmp_path, monkeypatch):
    assert "cache.moved" not in ids(moved_box(tmp_path, monkeypatch, old_filled=False, new_filled=False))
