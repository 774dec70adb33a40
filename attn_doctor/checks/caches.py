"""Compile caches: where each resolves, whether it can be written, has room, and survives a reboot;
FA4's own disk cache, which is off unless enabled."""

from __future__ import annotations

import os
import re

from ..facts import view
from ..facts.caches import PERSISTENT, VOLATILE_FS
from ..knowledge import finding
from . import Context, check

LOW_SPACE = 2 * 1024**3
# The kernel's pseudo-filesystems: no directory can be made on them (root's access() says writable,
# mkdir says ENOENT or EPERM), and their free space (0) means nothing.
PSEUDO_FS = {"proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "securityfs", "tracefs",
             "configfs", "pstore", "bpf", "mqueue", "fusectl", "binfmt_misc", "efivarfs", "nsfs", "autofs"}
PLACE = "${CACHE_ROOT:?a directory on a persistent volume this user can write}"  # unset: the shell refuses the line


def persist(c: dict, env: dict, problem: str | None = None) -> dict:
    """Where to move cache `c`: params `persistent` (what env.sh writes; absent when this user cannot
    create it under $HOME, or when that is the very directory with the problem) and `persist_cmd`
    (the line to paste either way)."""
    home = c.get("persistent") or {}
    value = PERSISTENT.get(c["name"], "$HOME/.cache/" + c["name"])
    leaf = value.rsplit("/", 1)[-1]
    here = os.path.normpath((env.get("HOME") or "~") + value[len("$HOME"):])
    why = None
    if home and not home.get("usable"):
        why = f"not under $HOME: {home.get('why')}"
    elif problem and here == os.path.normpath(c.get("path") or ""):
        why = f"{value} is the directory that {problem}"
    if why:
        return {"persist_cmd": f'export {c["var"]}="{PLACE}/{leaf}"   # {why}'}
    return {"persistent": value, "persist_cmd": f'export {c["var"]}="{value}"'}


def _in_use(facts: dict, ctx: Context) -> set[str]:
    """The caches this machine's stack will write to."""
    t = view.torch(facts)
    imports = facts.get("imports") or {}
    names = set()
    if t["installed"]:
        names.add("inductor")
        if t["cuda"] or t["hip"]:
            names.add("triton")
    if (imports.get("sage") or {}).get("installed"):
        names.add("triton-direct")
    if (imports.get("cute") or {}).get("installed"):
        names.update({"cute-dsl", "fa4"})
    return names


def unusable(c: dict) -> tuple[str, dict] | None:
    """Why a cache directory cannot be used at all, as (finding id, its params), or None."""
    if c.get("exists") and not c.get("is_dir"):
        return "cache.not-a-directory", {}
    if c.get("is_dir") and not c.get("writable"):
        return "cache.unwritable", {}
    parent = c.get("nearest_existing") or "?"
    if not c.get("exists") and c.get("fs_type") in PSEUDO_FS:
        return "cache.uncreatable", dict(parent=parent, why=f"{parent} is on the kernel's {c['fs_type']} pseudo-filesystem, "
                                                             "where no directory can be made")
    if not c.get("exists") and not c.get("creatable"):
        return "cache.uncreatable", dict(parent=parent, why=c.get("create_error") or f"{parent} is not writable")
    return None


PROBLEM = {"cache.not-a-directory": "is not a directory", "cache.unwritable": "is not writable",
           "cache.uncreatable": "cannot be created"}


def named_in(facts: dict, text: str) -> dict | None:
    """An unusable cache directory whose path `text` (a failure's own error) names, with its params
    (var, path, problem, persistent), or None: that cache is why the failure happened."""
    for c in facts.get("caches") or []:
        bad = unusable(c)
        path = (c.get("path") or "").rstrip("/")
        if bad and path and re.search(re.escape(path) + r"(?=$|[/'\"\s:,)])", text):
            why = bad[1].get("why")
            return dict(var=c["var"], path=c["path"], **persist(c, view.env(facts), PROBLEM[bad[0]]),
                        problem=PROBLEM[bad[0]] + (f" ({why})" if why else ""), cache=bad[0])
    return None


@check("caches")
def cache_dirs(facts: dict, ctx: Context):
    used = _in_use(facts, ctx)
    seen_paths = set()
    for c in facts.get("caches") or []:
        name = c["name"]
        if name not in used:
            continue
        if name == "fa4" and not c.get("enabled"):
            continue  # FA4 writes nothing unless its cache is on (see fa4_cache)
        if name == "triton" and not c.get("set"):
            continue  # inside the Inductor cache: judged with it
        if c["path"] in seen_paths:
            continue
        seen_paths.add(c["path"])
        p = dict(name=name, var=c["var"], path=c["path"], used_by=c.get("used_by", ""))
        env = view.env(facts)
        bad = unusable(c)
        if bad:
            yield finding(bad[0], **bad[1], **p, **persist(c, env, PROBLEM[bad[0]]))
            continue
        free = c.get("free_bytes")
        if free is not None and free < LOW_SPACE and c.get("fs_type") not in PSEUDO_FS:
            yield finding("cache.low-space", free=f"{free / 1024**3:.1f} GiB", mount=c.get("mount") or "?", **p,
                          **persist(c, env, "is short of space"))
        # The CUTLASS DSL's own IR cache is not where FA4 keeps kernels (cache.fa4-*): no advice on it.
        if name != "cute-dsl" and (c.get("fs_type") in VOLATILE_FS or c.get("under_tmp")):
            why = f"a {c['fs_type']} (memory) filesystem" if c.get("fs_type") in VOLATILE_FS else "under /tmp"
            yield finding("cache.volatile", why=why, how="set" if c.get("set") else "the default", **p, **persist(c, env))


@check("caches")
def fa4_cache(facts: dict, ctx: Context):
    if "fa4" not in _in_use(facts, ctx) or not ctx.wanted("cute"):
        return
    c = next((c for c in facts.get("caches") or [] if c["name"] == "fa4"), None)
    if not c:
        return
    env = view.env(facts)
    raw = c.get("enabled_raw")
    if not c.get("enabled"):
        if raw is not None:
            yield finding("cache.fa4-enable-value", backend="cute", value=raw)
        else:
            yield finding("cache.fa4-disabled", backend="cute")
        if "CUTE_DSL_CACHE_DIR" in env:
            yield finding("cache.cute-dsl-dir-misread", backend="cute", value=env["CUTE_DSL_CACHE_DIR"])
        return
    sysf = facts.get("system") or {}
    if not c.get("set") and not sysf.get("user"):
        yield finding("cache.fa4-no-user", backend="cute", uid=sysf.get("uid"), error=sysf.get("user_error") or "")


@check("caches")
def moved(facts: dict, ctx: Context):
    """A cache variable (env.sh sets them) points at an empty directory while the default place holds
    compiled kernels: this run compiles everything again, once. Said once: the run fills the new one."""
    if "inductor" not in _in_use(facts, ctx):
        return
    by_name = {c["name"]: c for c in facts.get("caches") or []}
    ind = by_name.get("inductor") or {}
    if not (ind.get("set") and ind.get("default_filled") and not ind.get("filled")) or unusable(ind):
        return  # (a directory that cannot be used has its own finding, whose fix moves it elsewhere)
    tri = by_name.get("triton") or {}
    old, new = ind["default_path"], ind["path"]
    if not tri.get("set"):  # Triton's kernels stay inside the Inductor cache (<it>/triton/<device>/)
        copy = f'mkdir -p "{new}" && cp -a "{old}"/. "{new}"/'
    else:
        # TRITON_CACHE_DIR set: Inductor looks Triton's kernels up in it directly (no device level) and
        # never in <its cache>/triton/, so each cache is copied once: the Inductor cache without triton/,
        # and each device's folder of the old triton/ into TRITON_CACHE_DIR (where its keys are looked up).
        copy = f'mkdir -p "{new}" && tar -C "{old}" --exclude=./triton -cf - . | tar -C "{new}" -xf -'
        devices = ind.get("default_triton_devices") or []
        if devices and not tri.get("filled"):
            copy += f' && mkdir -p "{tri["path"]}"' + "".join(
                f' && cp -a "{old}/triton/{d}"/. "{tri["path"]}"/' for d in devices)
    yield finding("cache.moved", var=ind["var"], path=new, old=old, copy=copy)
