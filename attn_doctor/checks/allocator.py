"""The CUDA caching allocator's settings (PYTORCH_ALLOC_CONF / PYTORCH_CUDA_ALLOC_CONF), parsed the
way torch parses them. Checked on any machine: the job may run on another one."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..facts import view
from ..knowledge import finding
from . import Context, check

NEW, OLD = "PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF"
GRAPH_MODES = {"reduce-overhead", "max-autotune"}  # torch.compile modes that capture CUDA graphs


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _int(v: str) -> int | None:
    return int(v) if re.fullmatch(r"\d+", v) else None


def _float(v: str) -> float | None:
    try:
        f = float(v)
    except ValueError:
        return None
    return f if math.isfinite(f) else None


def _bool(v: str) -> str | None:
    return None if v in ("True", "False") else "expects exactly True or False"


def _mb_at_least_20(v: str) -> str | None:
    n = _int(v)
    return "expects a whole number of MB" if n is None else ("must be >= 20 (MB)" if n < 20 else None)


def _whole(v: str) -> str | None:
    return None if _int(v) is not None else "expects a whole number"


def _gc(v: str) -> str | None:
    f = _float(v)
    return "expects a number" if f is None else (None if 0 < f < 1 else "must be in (0.0, 1.0)")


def _fraction(v: str) -> str | None:
    f = _float(v)
    return "expects a number" if f is None else (None if 0 <= f <= 1 else "must be in [0.0, 1.0]")


def _threads(v: str) -> str | None:
    n = _int(v)
    return None if n is not None and _pow2(n) and n <= 128 else "must be a power of 2, at most 128"


def _backend(v: str) -> str | None:
    return None if v in ("native", "cudaMallocAsync") else "is native or cudaMallocAsync"


def _divisions(v: str) -> str | None:
    n = _int(v)
    return None if n is not None and _pow2(n) else "must be a power of 2"


# Every key some torch release accepts (c10 AllocatorConfig + CUDAAllocatorConfig, through 2.13).
KEYS = {
    "max_split_size_mb": _mb_at_least_20,
    "max_non_split_rounding_mb": _mb_at_least_20,
    "garbage_collection_threshold": _gc,
    "roundup_power2_divisions": _divisions,  # or a [interval:divisions, ...] list
    "expandable_segments": _bool,
    "backend": _backend,
    "release_lock_on_cudamalloc": _bool,
    "pinned_use_cuda_host_register": _bool,
    "pinned_num_register_threads": _threads,
    "pinned_use_background_threads": _bool,
    "large_segment_size_mb": _whole,
    "graph_capture_record_stream_reuse": _bool,
    "pinned_reserve_segment_size_mb": _whole,
    "per_process_memory_fraction": _fraction,
    "pinned_free_catch_all": _bool,
    "throw_on_cudamalloc_oom": _bool,
    # ROCm spellings torch accepts too
    "release_lock_on_hipmalloc": _bool,
    "pinned_use_hip_host_register": _bool,
}
NATIVE_ONLY = {"max_split_size_mb", "roundup_power2_divisions", "garbage_collection_threshold",
               "max_non_split_rounding_mb", "expandable_segments"}


@dataclass
class Problem:
    kind: str  # syntax | unknown-key | bool-case | bad-value
    key: str | None
    value: str | None
    message: str


@dataclass
class AllocConf:
    raw: str
    pairs: list[tuple[str, str]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def get(self, key: str) -> str | None:
        return next((v for k, v in self.pairs if k == key), None)

    def fixed(self) -> str:
        """The same settings with every fixable problem fixed: booleans spelled True/False, `key=value`
        of a known key read as `key:value`, and pairs torch would reject (unknown keys, bad values)
        dropped; whatever follows a syntax error is dropped too."""
        out = []
        for k, v in self.pairs:
            if k not in KEYS:
                continue
            if KEYS[k] is _bool and v.lower() in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                v = "True" if v.lower() in ("true", "1", "yes", "on") else "False"
            if any(p.key == k and p.kind == "bad-value" for p in self.problems):
                continue
            out.append(f"{k}:{v}")
        return ",".join(out)


def lex(text: str) -> list[str]:
    """torch's lexer: ',', ':', '[' and ']' are tokens; spaces vanish."""
    toks, buf = [], []
    for ch in text:
        if ch in ",:[]":
            if buf:
                toks.append("".join(buf))
                buf = []
            toks.append(ch)
        elif ch != " ":
            buf.append(ch)
    if buf:
        toks.append("".join(buf))
    return toks


def parse(text: str) -> AllocConf:
    conf = AllocConf(text)
    toks = lex(text)
    i = 0
    while i < len(toks):
        key = toks[i]
        if key in ",:[]":
            conf.problems.append(Problem("syntax", None, None, f"unexpected {key!r} at token {i}"))
            break
        if i + 1 >= len(toks) or toks[i + 1] != ":":
            conf.problems.append(Problem("syntax", key, None, f"{key!r} needs ':value'"))
            k, eq, v = key.partition("=")
            if not (eq and k in KEYS and v and (not KEYS[k](v) or KEYS[k] is _bool and v.lower() in ("true", "false"))):
                break
            conf.pairs.append((k, v))  # max_split_size_mb=512 meant max_split_size_mb:512: read on
            i += 1
            if i < len(toks) and toks[i] == ",":
                i += 1
                continue
            break
        if i + 2 >= len(toks):
            conf.problems.append(Problem("syntax", key, None, f"{key!r} has no value"))
            break
        if key == "roundup_power2_divisions" and toks[i + 2] == "[":
            j, items = i + 3, []
            while j < len(toks) and toks[j] != "]":
                if toks[j] == ",":
                    j += 1
                    continue
                if j + 2 >= len(toks) or toks[j + 1] != ":":
                    break
                items.append((toks[j], toks[j + 2]))
                j += 3
            if j >= len(toks) or toks[j] != "]":
                conf.problems.append(Problem("syntax", key, None, "the [...] list is not closed with ']'"))
                break
            value = "[" + ",".join(f"{a}:{b}" for a, b in items) + "]"
            for a, b in items:
                if not (a == ">" or (_int(a) is not None and _pow2(_int(a)))):
                    conf.problems.append(Problem("bad-value", key, value, f"interval {a!r} must be a power of 2 or '>'"))
                if _int(b) is None or not (_int(b) == 0 or _pow2(_int(b))):
                    conf.problems.append(Problem("bad-value", key, value, f"divisions {b!r} must be a power of 2 or 0"))
            conf.pairs.append((key, value))
            i = j + 1
        else:
            value = toks[i + 2]
            if value in ",:[]":
                conf.problems.append(Problem("syntax", key, None, f"{key!r} has no value"))
                break
            conf.pairs.append((key, value))
            validate = KEYS.get(key)
            if validate is None:
                conf.problems.append(Problem("unknown-key", key, value, f"Unrecognized key {key!r}"))
            else:
                msg = validate(value)
                if msg:
                    kind = "bool-case" if validate is _bool and value.lower() in ("true", "false") else "bad-value"
                    conf.problems.append(Problem(kind, key, value, f"{key} {msg}, got {value!r}"))
            i += 3
        if i < len(toks):
            if toks[i] != ",":
                conf.problems.append(Problem("syntax", toks[i], None, f"expected ',' before {toks[i]!r}"))
                break
            i += 1
    return conf


# facts/system.py records a huge value cut: its head, then "...[N characters]".
CUT = re.compile(r"\.\.\.\[\d+ characters\]\Z")


def judged(value: str) -> str:
    """What can be judged of a recorded value: all of it, or of a cut one, the whole pairs before
    the cut (the pair the cut went through would look broken when it is not)."""
    m = CUT.search(value)
    if not m:
        return value
    head = value[:m.start()]
    return head[:head.rindex(",")] if "," in head else head


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "'\\''") + "'"


def set_cmd(var: str, value: str) -> str:
    """The line that applies a corrected value: export it, or unset the variable when nothing is left."""
    return f"export {var}={_quoted(value)}" if value else f"unset {var}"


def effective(env: dict) -> tuple[str | None, str | None]:
    """(variable torch reads, variable it ignores): the CUDA-specific name wins when both are set."""
    if OLD in env:
        return OLD, (NEW if NEW in env else None)
    if NEW in env:
        return NEW, None
    return None, None


def target_name(torch_base) -> str:
    """The name to write: PYTORCH_ALLOC_CONF where torch reads it reliably (2.11+, or torch unknown:
    the job's torch is new), the old name for older torch (2.9.x ignored expandable_segments through
    the new name; before 2.9 it is not read at all)."""
    return OLD if torch_base is not None and torch_base < view.version("2.11") else NEW


@dataclass
class Correction:
    """The one allocator setting that fixes every allocator finding: `var` set to `value` (unset
    when None: torch's defaults) and the other name unset."""
    var: str
    value: str | None
    unset: list[str]

    @property
    def command(self) -> str:
        if self.value is None:
            return "unset " + " ".join(sorted({self.var, *self.unset}))
        return "; ".join([set_cmd(self.var, self.value)] + [f"unset {v}" for v in self.unset])


def correction(env: dict, torch_base, mode: str | None) -> Correction | None:
    """torch's parse of the value in use, with booleans spelled True/False, `key=value` read as
    `key:value`, rejected pairs dropped, backend:cudaMallocAsync dropped when the compile mode
    captures CUDA graphs (or is unknown), else the options it ignores dropped; under the name this
    torch reads reliably."""
    used, _ = effective(env)
    if used is None:
        return None
    conf = parse(judged(env[used]))
    pairs = [p for p in conf.fixed().split(",") if p]
    if "backend:cudaMallocAsync" in pairs:
        if mode is None or mode in GRAPH_MODES:
            pairs = [p for p in pairs if not p.startswith("backend:")]
        else:
            pairs = [p for p in pairs if p.split(":", 1)[0] not in NATIVE_ONLY]
    value = ",".join(pairs) or None
    var = target_name(torch_base) if value else used  # nothing left: unset what is set
    return Correction(var, value, [v for v in (OLD, NEW) if v != var and v in env])


@check("allocator")
def allocator_settings(facts: dict, ctx: Context):
    env = view.env(facts)
    tv = view.torch_base(facts)
    tver = view.torch(facts)["version"] or "?"
    fix = correction(env, tv, ctx.compile_mode)
    fix_cmd = fix.command if fix else ""
    for var in (OLD, NEW):
        if var not in env:
            continue
        conf = parse(judged(env[var]))
        for p in conf.problems:
            if p.kind == "unknown-key":
                yield finding("alloc.unknown-key", var=var, key=p.key, value=env[var], fix_cmd=fix_cmd)
            elif p.kind == "bool-case":
                yield finding("alloc.bool-case", var=var, key=p.key, got=p.value, value=env[var], fix_cmd=fix_cmd)
            elif p.kind == "bad-value":
                yield finding("alloc.bad-value", var=var, key=p.key, problem=p.message, value=env[var], fix_cmd=fix_cmd)
            else:
                yield finding("alloc.syntax", var=var, problem=p.message, value=env[var], fix_cmd=fix_cmd)
    used, ignored = effective(env)
    if ignored:
        yield finding("alloc.both-set", used=used, ignored=ignored, torch=tver, fix_cmd=fix_cmd)
    if used == NEW and tv and tv < view.version("2.11"):
        yield finding("alloc.new-name-unreliable", torch=tver, value=env[NEW], fix_cmd=fix_cmd)
    elif used == OLD and not ignored and tv and tv >= view.version("2.11"):
        yield finding("alloc.old-name", torch=tver, value=env[OLD], fix_cmd=fix_cmd)
    if not used:
        return
    conf = parse(judged(env[used]))
    if conf.get("backend") == "cudaMallocAsync":
        native = sorted(k for k, _ in conf.pairs if k in NATIVE_ONLY)
        mode = ctx.compile_mode
        if native:
            yield finding("alloc.async-ignores-options", var=used, keys=", ".join(native), fix_cmd=fix_cmd)
        if mode in GRAPH_MODES or mode is None:
            yield finding("alloc.async-cudagraphs", severity=None if mode else "warning", var=used,
                          mode=mode or "reduce-overhead or max-autotune", value=env[used], fix_cmd=fix_cmd)
