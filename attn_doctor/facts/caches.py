"""Where each compile cache resolves, as the library that owns it would resolve it, and its state."""

from __future__ import annotations

import os
import re
import tempfile

VOLATILE_FS = ("tmpfs", "ramfs")  # memory-backed: emptied on reboot
# Where env.sh moves each cache: under $HOME, when this user can create it there (`persistent`).
PERSISTENT = {
    "inductor": "$HOME/.cache/torchinductor",
    "triton": "$HOME/.cache/triton",
    "triton-direct": "$HOME/.cache/triton",
    "cute-dsl": "$HOME/.cache/cutlass_dsl",
    "fa4": "$HOME/.cache/flash_attention_cute_dsl",
}


def _user(environ: dict, user: str | None) -> str:
    return user or f"uid_{os.getuid()}"


def resolve(environ: dict, user: str | None) -> list[dict]:
    """The caches the attention stack compiles into: name, variable, path, and whether it was set."""
    tmp = tempfile.gettempdir()
    u = _user(environ, user)
    inductor = environ.get("TORCHINDUCTOR_CACHE_DIR") or os.path.join(
        tmp, "torchinductor_" + re.sub(r'[\\/:*?"<>|]', "_", u))
    triton_dir = environ.get("TRITON_CACHE_DIR")
    fa4_dir = environ.get("FLASH_ATTENTION_CUTE_DSL_CACHE_DIR") or os.path.join(tmp, u, "flash_attention_cute_dsl_cache")
    cute_dsl = environ.get("CUTE_DSL_CACHE_DIR") or os.path.join(environ.get("TMPDIR") or tmp, u, "cutlass_python_cache")
    triton_home = environ.get("TRITON_HOME") or os.path.expanduser("~")
    return [
        {"name": "inductor", "var": "TORCHINDUCTOR_CACHE_DIR", "path": inductor,
         "set": bool(environ.get("TORCHINDUCTOR_CACHE_DIR")), "used_by": "torch.compile, FlexAttention"},
        {"name": "triton", "var": "TRITON_CACHE_DIR",
         "path": triton_dir or os.path.join(inductor, "triton"), "set": bool(triton_dir),
         "used_by": "Triton kernels under torch.compile (inside the Inductor cache unless set)"},
        {"name": "triton-direct", "var": "TRITON_CACHE_DIR",
         "path": triton_dir or os.path.join(triton_home, ".triton", "cache"), "set": bool(triton_dir),
         "used_by": "Triton kernels called directly (SageAttention 1.x)"},
        {"name": "cute-dsl", "var": "CUTE_DSL_CACHE_DIR", "path": cute_dsl,
         "set": bool(environ.get("CUTE_DSL_CACHE_DIR")), "used_by": "the CUTLASS DSL's own IR cache (not FA4's kernels)"},
        {"name": "fa4", "var": "FLASH_ATTENTION_CUTE_DSL_CACHE_DIR", "path": fa4_dir,
         "set": bool(environ.get("FLASH_ATTENTION_CUTE_DSL_CACHE_DIR")), "used_by": "FA4 compiled kernels",
         "enabled": environ.get("FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED", "0") == "1",
         "enabled_raw": environ.get("FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED")},
    ]


def mounts() -> list[tuple[str, str]]:
    out = []
    try:
        with open("/proc/mounts", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                parts = line.split()
                if len(parts) >= 3:
                    out.append((parts[1].replace("\\040", " "), parts[2]))
    except OSError:
        pass
    return out


def fs_type(path: str, mount_table: list[tuple[str, str]]) -> tuple[str | None, str | None]:
    best, kind = "", None
    real = os.path.realpath(path)
    for mnt, fstype in mount_table:
        if (real == mnt or real.startswith(mnt.rstrip("/") + "/")) and len(mnt) >= len(best):
            best, kind = mnt, fstype
    return kind, best or None


def too_long(path: str, existing: str) -> str | None:
    """Why `path` can never be created because of its length (mkdir: ENAMETOOLONG), or None."""
    def limit(name: str, default: int) -> int:
        try:
            return os.pathconf(existing, name)
        except (OSError, ValueError):
            return default

    raw = os.fsencode(path)
    longest = max((len(part) for part in raw.split(b"/")), default=0)
    if longest > limit("PC_NAME_MAX", 255):
        return f"one of its names is {longest} bytes long, more than the filesystem allows"
    if len(raw) >= limit("PC_PATH_MAX", 4096):
        return f"it is {len(raw)} bytes long, more than a path may be"
    return None


def state(path: str, mount_table: list[tuple[str, str]]) -> dict:
    """exists / is a directory / writable, or the nearest existing parent that would be used to create it."""
    st: dict = {"exists": os.path.lexists(path), "is_dir": os.path.isdir(path)}
    probe = path
    while probe and not os.path.exists(probe):
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    st["nearest_existing"] = probe
    if st["is_dir"]:
        st["writable"] = os.access(path, os.W_OK | os.X_OK)
        st["readable"] = os.access(path, os.R_OK | os.X_OK)
    elif st["exists"]:
        st["writable"] = False  # a file (or dangling link) where a directory must go
    else:
        st["creatable"] = os.path.isdir(probe) and os.access(probe, os.W_OK | os.X_OK)
        st["create_error"] = too_long(path, probe) or (None if os.path.isdir(probe) else f"{probe} is not a directory")
        if st["create_error"]:
            st["creatable"] = False
    try:
        vfs = os.statvfs(probe)
        st["free_bytes"] = vfs.f_bavail * vfs.f_frsize
    except OSError:
        st["free_bytes"] = None
    st["fs_type"], st["mount"] = fs_type(probe, mount_table)
    real = os.path.realpath(path)
    st["under_tmp"] = real == "/tmp" or real.startswith("/tmp/") or \
        real.startswith(os.path.realpath(tempfile.gettempdir()) + "/")
    return st


def try_create(path: str, st: dict) -> str | None:
    """Why this user cannot create (or write into) directory `path`, found by trying it in the nearest
    existing directory (a temporary directory, removed at once), or None when it can. access() is not
    enough: root's says yes to a read-only mount."""
    where = path if st.get("is_dir") else st.get("nearest_existing")
    if st.get("exists") and not st.get("is_dir"):
        return f"{path} exists and is not a directory"
    if not where or not os.path.isdir(where):
        return f"{where or path} is not a directory"
    if st.get("create_error"):
        return st["create_error"]
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".attn-doctor-try-", dir=where))
    except OSError as e:
        return f"{where} is not writable ({e.strerror or type(e).__name__})"
    return None


def persistent(name: str, environ: dict, table: list[tuple[str, str]]) -> dict:
    """Where env.sh would move cache `name`, and whether that works here: `usable`, else `why` not."""
    value = PERSISTENT.get(name, "$HOME/.cache/" + name)
    home = environ.get("HOME") or os.path.expanduser("~")
    path = os.path.normpath(home + value[len("$HOME"):])
    st = state(path, table)
    why = try_create(path, st)
    if why is None and (st.get("fs_type") in VOLATILE_FS or st.get("under_tmp")):
        why = f"{home} is {'on ' + st['fs_type'] if st.get('fs_type') in VOLATILE_FS else 'under /tmp'}, so it does not last either"
    return {"value": value, "path": path, "usable": why is None, "why": why}


def filled(path: str) -> bool:
    """Does the directory hold anything (a compile cache that was used)?"""
    try:
        with os.scandir(path) as it:
            return any(True for _ in it)
    except OSError:
        return False


def subdirs(path: str) -> list[str]:
    """The names of the directories directly in `path`, sorted ([] when it is none)."""
    try:
        with os.scandir(path) as it:
            return sorted(e.name for e in it if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def collect(environ: dict, user: str | None) -> list[dict]:
    table = mounts()
    out = []
    homes: dict[str, dict] = {}
    # Where each cache would be without its variable: a variable that moved it (env.sh does) leaves
    # the kernels compiled so far behind, and the next run compiles them again (checks/caches.moved).
    defaults = {c["name"]: c["path"] for c in resolve({k: v for k, v in environ.items()
                                                      if k not in ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")}, user)}
    for c in resolve(environ, user):
        c.update(state(c["path"], table))
        value = PERSISTENT.get(c["name"])
        if value not in homes:
            homes[value] = persistent(c["name"], environ, table)
        c["persistent"] = homes[value]
        if c["name"] in ("inductor", "triton"):
            c["filled"] = bool(c.get("is_dir")) and filled(c["path"])
            if c["set"] and defaults[c["name"]] != c["path"]:
                c["default_path"] = defaults[c["name"]]
                c["default_filled"] = filled(defaults[c["name"]])
                if c["name"] == "inductor":
                    # Inductor keeps Triton's kernels in <its cache>/triton/<device index>/ unless
                    # TRITON_CACHE_DIR is set, and then in that directory itself (no device level):
                    # checks/caches.moved copies each device's folder there, and the rest without triton/.
                    c["default_triton_devices"] = subdirs(os.path.join(defaults["inductor"], "triton"))
        out.append(c)
    return out
