"""Where each compile cache resolves, as the library that owns it would resolve it, and its state."""

from __future__ import annotations

import os
import re
import tempfile

VOLATILE_FS = ("tmpfs", "ramfs")  # memory-backed: emptied on reboot


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


def filled(path: str) -> bool:
    """Does the directory hold anything (a compile cache that was used)?"""
    try:
        with os.scandir(path) as it:
            return any(True for _ in it)
    except OSError:
        return False


def collect(environ: dict, user: str | None) -> list[dict]:
    table = mounts()
    out = []
    # Where each cache would be without its variable: a variable that moved it (env.sh does) leaves
    # the kernels compiled so far behind, and the next run compiles them again (checks/caches.moved).
    defaults = {c["name"]: c["path"] for c in resolve({k: v for k, v in environ.items()
                                                      if k not in ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")}, user)}
    for c in resolve(environ, user):
        c.update(state(c["path"], table))
        if c["name"] in ("inductor", "triton"):
            c["filled"] = bool(c.get("is_dir")) and filled(c["path"])
            if c["set"] and defaults[c["name"]] != c["path"]:
                c["default_path"] = defaults[c["name"]]
                c["default_filled"] = filled(defaults[c["name"]])
        out.append(c)
    return out
