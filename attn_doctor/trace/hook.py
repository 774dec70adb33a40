"""attn-doctor trace, inside the user's process: which attention kernel ran, per call site.

This file is self-contained (standard library only, no imports from attn_doctor) and must stay so:
`attn-doctor trace` loads it by file path from a sitecustomize in every Python process of the
user's command, an interpreter that may not have attn_doctor installed at all. `attn_doctor.trace()`
imports the same file as a module. It imports nothing heavy: a finder on sys.meta_path waits for
the user's program to import torch (or flash_attn, sageattention, xformers) and wraps the attention
entry points when that import finishes.

Each wrapper is cheap: the first call of a (call site, dtype, shape class) identifies the kernel,
every later one is a dict lookup and an increment. The call site is the first frame outside torch,
the backends, this file and the attention shims of transformers/diffusers (a code object's verdict
is cached). The shape class is what can change the dispatcher's choice: dtype, device, head dim,
mask kind, causal, dropout, GQA, requires_grad and SDPA's enabled-kernel flags.

How the SDPA kernel is identified: with torch._fused_sdp_choice, the very function
F.scaled_dot_product_attention calls to pick its kernel, on the same inputs, under the same
sdpa_kernel flags (and the autocast dtype the call ran in, read from its output). It runs no kernel,
needs no profiler and answers what the dispatcher chose, not what a profile window happened to
catch; the profiler's kernel names would cost a profiling window and change across releases. Why
flash was not chosen comes from torch.backends.cuda.can_use_flash_attention(params, debug=True),
whose reasons torch prints as warnings, caught here.

Calls traced by torch.compile are seen once per trace (a comptime callback records them while
Dynamo traces; nothing is added to the graph), so their count is the number of traces, not of calls.

The hook never breaks the program: every error inside it is caught and recorded, the wrapped
function is always called with the caller's own arguments, and exceptions of the wrapped function
pass through untouched. The one exception it raises on purpose is SystemExit(0), when --steps or
--seconds asks it to stop the program.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import sys
import threading
import time

ENV_DIR = "ATTN_DOCTOR_TRACE_DIR"  # where each process writes its data file (set by `attn-doctor trace`)
ENV_STEPS = "ATTN_DOCTOR_TRACE_STEPS"
ENV_SECONDS = "ATTN_DOCTOR_TRACE_SECONDS"
SCHEMA = "attn-doctor.trace-process/1"
MAX_ERRORS = 20
WRITE_EVERY = 2.0  # seconds between data-file writes when new rows appear (and always at exit)
STEP_WRITE_EVERY = 10.0  # and at an optimizer step, when the last write is older than this

_getframe = sys._getframe
_monotonic = time.monotonic


class _Local(threading.local):
    depth = 0  # > 0 while a wrapped call is being identified (nested attention calls are its inner kernels)
    outer = None  # the row being identified


_tls = _Local()


class _State:
    def __init__(self):
        self.started = _monotonic()
        self.pid = os.getpid()
        self.table = {}  # key -> [count, row]
        self.errors = []  # {"where", "error"}: what went wrong inside the hook (the first MAX_ERRORS)
        self.error_count = 0
        self.patched = {}  # entry -> {"entry", "by", "backend", "defined"}
        self.steps = 0  # optimizer steps
        self.attention_steps = 0  # optimizer steps with attention seen since the step before
        self.last_total = 0
        self.stopped = None  # "steps" | "seconds" when the hook stopped the program
        self.data_dir = None
        self.max_steps = None
        self.deadline = None
        self.last_write = 0.0
        self.torch_version = None
        self.installed = set()  # module names patched
        self.watchdog = None


_st = _State()
_on = False  # wrappers record only while on
_limits = False  # --steps / --seconds given: the slow path checks them
_comptime = None  # torch._dynamo.comptime.comptime once Dynamo is imported
_Tensor = None


def _is_compiling():  # torch.compiler.is_compiling once torch is imported
    return False


# Hot-path keys use id(code) and f_lasti: hash(code) and f_lineno cost microseconds on a large code object.
_LIBCODE = {}  # id(code object) -> True when the frame is library code (skipped when looking for the call site)
_KEEP = []  # those code objects
_sdpa_flags = None
_fa_registry = None
_WRAPPERS = {}  # id(original) -> wrapper
_ORIGINALS = {}  # id(wrapper) -> (original, backend, qualified name)
_sdpa_wrapper = None
_flex_wrapper = None
_step_hook = None  # the optimizer step hook's handle

# Frames that are not the call site: torch, the backends, this hook, and the attention plumbing of
# the model libraries (their model files, the user's code and trainers' code are call sites).
_LIB_PARTS = tuple(
    p.replace("/", os.sep) for p in (
        "/site-packages/torch/", "/dist-packages/torch/", "/flash_attn/", "/flash_attn_interface.py", "/flash_attn_3/",
        "/sageattention/", "/xformers/", "/triton/", "/functorch/", "/transformers/integrations/",
        "/transformers/modeling_flash_attention_utils.py", "/transformers/utils/generic.py",
        "/transformers/masking_utils.py", "/diffusers/models/attention_dispatch.py",
        "/diffusers/models/attention_processor.py", "/accelerate/hooks.py", "/accelerate/utils/operations.py",
        "/peft/tuners/", "/functools.py", "/contextlib.py", "/importlib/",
    ))
_LIB_DIRS = []  # the real directories of torch and the backends, once imported (a source build of torch too)
_HERE = os.path.abspath(__file__)


def _error(where, exc):
    try:
        _st.error_count += 1
        if len(_st.errors) < MAX_ERRORS:
            _st.errors.append({"where": where, "error": f"{type(exc).__name__}: {exc}"[:500]})
    except Exception:
        pass


# ----------------------------------------------------------------------------------------------
# call sites
# ----------------------------------------------------------------------------------------------

def _classify(code):
    _KEEP.append(code)  # _LIBCODE is keyed by id(code): keep the code alive so its id is never reused
    fn = code.co_filename
    lib = (fn == _HERE or fn.startswith("<frozen") or any(p in fn for p in _LIB_PARTS)
           or any(fn.startswith(d) for d in _LIB_DIRS))
    if not lib and fn.endswith("sitecustomize.py") and "attn-doctor-trace" in fn:
        lib = True
    _LIBCODE[id(code)] = lib
    return lib


def _site_frame(f):
    """The first frame at or above f that is not library code (f itself when all are)."""
    first = f
    while f is not None:
        c = f.f_code
        lib = _LIBCODE.get(id(c))  # by id: hashing a code object hashes its bytecode
        if lib is None:
            lib = _classify(c)
        if not lib:
            return f
        f = f.f_back
    return first


def _qualname(code, frame=None):
    q = getattr(code, "co_qualname", None)  # Python 3.11+
    if q:
        return q
    try:
        s = frame.f_locals.get("self") if frame is not None else None
        if s is not None:
            return f"{type(s).__qualname__}.{code.co_name}"
    except Exception:
        pass
    return code.co_name


def _describe_site(f, start=None):
    """site (path:line), function, module, and via: the library function that made the call."""
    out = {"site": "?", "function": None, "module": None, "via": None}
    try:
        if f is not None:
            c = f.f_code
            out["site"] = f"{c.co_filename}:{f.f_lineno}"
            out["function"] = _qualname(c, f)
            out["module"] = f.f_globals.get("__name__")
        g = start
        while g is not None and g is not f:  # the innermost library frame that is not a wrapper of ours
            c = g.f_code
            if c.co_filename != _HERE and "/torch/nn/modules/module.py" not in c.co_filename.replace(os.sep, "/"):
                out["via"] = f"{g.f_globals.get('__name__')}.{_qualname(c, g)}"
                break
            g = g.f_back
    except Exception as e:
        _error("site", e)
    return out


# ----------------------------------------------------------------------------------------------
# tensors, masks
# ----------------------------------------------------------------------------------------------

def _shape(t):
    try:  # never int() a SymInt while Dynamo traces: that would add a guard (a recompile) to the user's graph
        return [x if isinstance(x, int) else str(x) for x in t.shape]
    except Exception:
        return None


def _dtype(t):
    try:
        return str(t.dtype).replace("torch.", "")
    except Exception:
        return None


def _looks_causal(mask, q, k):
    """Is a mask tensor the plain causal mask (lower triangle)? Checked once per row: it syncs a GPU."""
    torch = sys.modules["torch"]
    L, S = int(q.shape[-2]), int(k.shape[-2])
    if mask.dim() < 2 or tuple(mask.shape[-2:]) != (L, S) or L * S > (1 << 24):
        return False
    m = mask.reshape(-1, L, S)[0]
    tril = torch.ones(L, S, dtype=torch.bool, device=m.device).tril()
    if m.dtype == torch.bool:
        return bool(torch.equal(m, tril))
    allowed = m == 0
    return bool(torch.equal(allowed, tril)) and bool((m[~tril] < -1e4).all()) if (~tril).any() else False


def _sdpa_mask(mask, is_causal, q, k, check_causal=False):
    if mask is None:
        return "causal" if is_causal else "none"
    try:
        kind = "bool mask" if str(mask.dtype) == "torch.bool" else "additive mask"
        if check_causal and _looks_causal(mask, q, k):
            kind += " (causal)"
        return kind + (" + is_causal" if is_causal else "")
    except Exception:
        return "mask"


# ----------------------------------------------------------------------------------------------
# SDPA
# ----------------------------------------------------------------------------------------------

_SDP_NAMES = {-1: "error", 0: "math", 1: "flash", 2: "efficient", 3: "cudnn", 4: "overrideable"}


def _flash_impl():
    """The flash implementation SDPA runs (torch >= 2.11: activate_flash_attention_impl("FA4")), or None."""
    r = _fa_registry
    try:
        a = r._FLASH_ATTENTION_ACTIVE if r is not None else None
        if a:
            return a[0]
        current = getattr(sys.modules.get("torch.nn.attention"), "current_flash_attention_impl", None)
        return current() if current is not None else None
    except Exception:
        return None


def _sdpa_choice(q, k, v, mask, dropout_p, is_causal, scale, enable_gqa):
    torch = sys.modules["torch"]
    try:
        return int(torch._fused_sdp_choice(q, k, v, mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa))
    except TypeError:  # torch < 2.5: no enable_gqa
        return int(torch._fused_sdp_choice(q, k, v, mask, dropout_p, is_causal, scale=scale))


def _flash_reasons(q, k, v, mask, dropout_p, is_causal, enable_gqa):
    """(flash possible?, the dispatcher's reasons it is not): can_use_flash_attention(debug=True)."""
    import warnings

    torch = sys.modules["torch"]
    cuda = torch.backends.cuda
    try:
        params = cuda.SDPAParams(q, k, v, mask, dropout_p, is_causal, enable_gqa)
    except TypeError:
        params = cuda.SDPAParams(q, k, v, mask, dropout_p, is_causal)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ok = bool(cuda.can_use_flash_attention(params, True))
    reasons = []
    for w in caught:
        text = str(w.message).split(" (Triggered internally")[0].strip()
        if text and text not in reasons:
            reasons.append(text)
    return ok, reasons


def _identify_sdpa(row, q, k, v, mask, dropout_p, is_causal, scale, enable_gqa, out):
    torch = sys.modules["torch"]
    dt = q.dtype
    ran = getattr(out, "dtype", dt)
    qq, kk, vv = q, k, v
    if ran != dt and ran in (torch.float16, torch.bfloat16):  # autocast cast the inputs: choose as it did
        row["autocast_from"] = _dtype(q)
        if q.numel() <= (1 << 28):
            qq = torch.empty_strided(q.size(), q.stride(), dtype=ran, device=q.device)
            kk = torch.empty_strided(k.size(), k.stride(), dtype=ran, device=k.device)
            vv = torch.empty_strided(v.size(), v.stride(), dtype=ran, device=v.device)
    row["dtype"] = _dtype(qq)
    choice = _sdpa_choice(qq, kk, vv, mask, dropout_p, is_causal, scale, enable_gqa)
    name = _SDP_NAMES.get(choice, str(choice))
    cuda = bool(q.is_cuda)
    if not cuda and name == "flash":
        name = "flash (CPU)"
    impl = _flash_impl()
    if impl and name == "flash":
        name = f"flash ({impl} via SDPA)"
        row["flash_impl"] = impl
    row["kernel"] = name
    row["flags"] = {n: bool(f()) for n, f in zip(("flash", "efficient", "math", "cudnn"), _sdpa_flags)}
    if name in ("math", "efficient"):
        if cuda:
            possible, reasons = _flash_reasons(qq, kk, vv, mask, dropout_p, is_causal, enable_gqa)
            row["flash_possible"] = possible
            if reasons:
                row["reason"] = "; ".join(reasons)[:600]
        elif not row["flags"]["flash"]:
            row["flash_possible"] = None
        if not row["flags"]["flash"]:
            row["flash_disabled"] = True


def _sdpa_row(key_, row, query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, out, raised):
    try:
        row["mask"] = _sdpa_mask(attn_mask, is_causal, query, key, check_causal=True)
        if dropout_p:
            row["dropout"] = float(dropout_p)
        _identify_sdpa(row, query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, out)
    except Exception as e:  # e.g. under vmap: the choice has no batching rule
        _error("sdpa kernel", e)
    if not row.get("kernel"):
        row["kernel"] = "unknown"
    _finish(key_, row, raised)


def _make_sdpa(orig, has_gqa):
    def _call(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, more):
        if has_gqa:
            return orig(query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa, **more)
        return orig(query, key, value, attn_mask, dropout_p, is_causal, scale=scale, **more)

    @functools.wraps(orig)
    def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                     enable_gqa=False, **more):
        if _is_compiling():
            if _comptime is not None:
                _comptime(_compiled_sdpa)
            return _call(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, more)
        rec = key_ = f = None
        if _on and isinstance(query, _Tensor):
            try:  # the counting path, inlined: every attention call of the job runs it
                f = _getframe(1)
                if _LIBCODE.get(id(f.f_code)) is not False:
                    f = _site_frame(f)
                qs = query.shape
                fl = _sdpa_flags
                reg = _fa_registry
                impl = reg._FLASH_ATTENTION_ACTIVE if reg is not None else None
                key_ = (id(f.f_code), f.f_lasti, query.dtype, query.is_cuda, qs[-1],
                        len(qs) > 2 and qs[-3] != key.shape[-3], query.requires_grad,
                        attn_mask is None or attn_mask.dtype, is_causal, dropout_p > 0,
                        fl[0](), fl[1](), fl[2](), fl[3](), impl[0] if impl else None)
                rec = _st.table.get(key_)
                if rec is not None:
                    rec[0] += 1
            except Exception as e:
                _error("sdpa", e)
                key_ = None
        if rec is not None or key_ is None:
            if _limits:
                _check_limits()
            return _call(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, more)
        row = _new_row("sdpa", f, _getframe(1), query, key, value)
        _tls.depth += 1
        prev, _tls.outer = _tls.outer, row
        try:
            out = _call(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, more)
        except BaseException as e:  # recorded (a trainer may catch it and fall back), then raised as it was
            _tls.depth -= 1
            _tls.outer = prev
            _sdpa_row(key_, row, query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, None, e)
            raise
        _tls.depth -= 1
        _tls.outer = prev
        _sdpa_row(key_, row, query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, out, None)
        return out

    return scaled_dot_product_attention


# ----------------------------------------------------------------------------------------------
# rows
# ----------------------------------------------------------------------------------------------

def _new_row(backend, f, start, q, k, v):
    row = {"backend": backend, "kernel": None, "compiled": False, "counted": "calls"}
    row.update(_describe_site(f, start))
    row.update({"dtype": _dtype(q), "device": None, "shapes": {"q": _shape(q), "k": _shape(k), "v": _shape(v)},
                "head_dim": None, "mask": None, "first_seen": round(_monotonic() - _st.started, 3), "pid": _st.pid})
    try:
        row["device"] = str(q.device)
        row["head_dim"] = int(q.shape[-1])
    except Exception:
        pass
    if _tls.depth and _tls.outer is not None:  # called from inside another traced attention call
        outer = _tls.outer
        row["inside"] = outer.get("backend")
        outer.setdefault("inner", [])
        label = backend if backend != "sdpa" else "sdpa"
        if label not in outer["inner"]:
            outer["inner"].append(label)
    return row


def _finish(key, row, raised):
    """A first call identified: keep its row; when the call itself raised, say so (the caller re-raises it,
    and no --steps/--seconds stop may replace it)."""
    if raised is not None:
        row["raised"] = f"{type(raised).__name__}: {raised}"[:400]
        # where it was raised: the innermost frames name the library (e.g. torch/nn/attention/_fa4.py), which
        # the known causes match on; the cost is paid once, on a first call that raised
        tb = getattr(raised, "__traceback__", None)
        frames = []
        while tb is not None:
            frames.append(f'  File "{tb.tb_frame.f_code.co_filename}", line {tb.tb_lineno}, in {tb.tb_frame.f_code.co_name}')
            tb = tb.tb_next
        row["raised_at"] = frames[-4:]
    _add(key, row, check_limits=raised is None)


def _add(key, row, check_limits=True):
    _st.table[key] = [1, row]
    try:
        _check_patches()
        if _st.data_dir and _monotonic() - _st.last_write > WRITE_EVERY:
            _write()
        _arm_watchdog()
    except Exception as e:
        _error("add", e)
    if _limits and check_limits:  # the one thing here that raises, on purpose: SystemExit(0)
        _check_limits()


# ----------------------------------------------------------------------------------------------
# torch.compile: a comptime callback records the call while Dynamo traces it
# ----------------------------------------------------------------------------------------------

def _local(ctx, name):
    try:
        return ctx.get_local(name)
    except Exception:
        return None


def _fake(vt):
    try:
        return vt.as_fake()
    except Exception:
        return None


def _const(vt, default=None):
    try:
        return vt.as_python_constant()
    except Exception:
        return default


def _compiled_site():
    """The innermost user frame Dynamo is tracing, else the first user frame on the real stack."""
    try:
        from torch._guards import TracingContext

        for fs in reversed(list(TracingContext.extract_stack())):
            if not any(p in fs.filename for p in _LIB_PARTS) and fs.filename != _HERE:
                return {"site": f"{fs.filename}:{fs.lineno}", "function": fs.name, "module": None, "via": None}
    except Exception as e:
        _error("compiled site", e)
    f = _site_frame(_getframe(1))
    return _describe_site(f, None)


def _compiled_row(backend, q, mask_kind, kernel, k=None, v=None):
    site = _compiled_site()
    key = ("compiled", backend, site["site"], _dtype(q), _shape(q)[-1] if _shape(q) else None, mask_kind, kernel)
    rec = _st.table.get(key)
    if rec is not None:
        rec[0] += 1
        return
    row = {"backend": backend, "kernel": kernel, "compiled": True, "counted": "traces"}
    row.update(site)
    row.update({"dtype": _dtype(q), "device": str(getattr(q, "device", "?")),
                "shapes": {"q": _shape(q), **({"k": _shape(k), "v": _shape(v)} if k is not None and v is not None else {})},
                "head_dim": (_shape(q) or [None])[-1], "mask": mask_kind,
                "first_seen": round(_monotonic() - _st.started, 3), "pid": _st.pid})
    _add(key, row, check_limits=False)  # never raise SystemExit while Dynamo traces: the next step stops it


def _compiled_sdpa(ctx):
    try:
        if not _on:
            return
        q, k, v = (_fake(_local(ctx, n)) for n in ("query", "key", "value"))
        mvt = _local(ctx, "attn_mask")
        mask = None if mvt is None or _const(mvt, 0) is None else _fake(mvt)
        is_causal = bool(_const(_local(ctx, "is_causal"), False))
        dropout_p = _const(_local(ctx, "dropout_p"), 0.0) or 0.0
        gqa = bool(_const(_local(ctx, "enable_gqa"), False))
        kernel = "unknown"
        try:
            if q.is_cuda:  # a CUDA fake tensor: torch's Meta kernel of the choice asks the CUDA dispatcher
                kernel = _SDP_NAMES.get(_sdpa_choice(q, k, v, mask, dropout_p, is_causal, None, gqa), "unknown")
            else:  # on the CPU that kernel says math, but the compiled graph gets the CPU choice: ask it
                kernel = _cpu_choice(q, k, v, mask, dropout_p, is_causal, gqa)
            if kernel == "flash" and _flash_impl():
                kernel = f"flash ({_flash_impl()} via SDPA)"
        except Exception as e:
            _error("compiled sdpa kernel", e)
        mask_kind = ("bool mask" if str(getattr(mask, "dtype", "")) == "torch.bool" else "additive mask") if mask is not None \
            else ("causal" if is_causal else "none")
        _compiled_row("sdpa", q, mask_kind, kernel)
    except Exception as e:
        _error("compiled sdpa", e)


def _raw(vt):
    """The VariableTracker under a ComptimeVar, and the Python object it stands for, where it has one."""
    try:
        raw = vt._i_will_not_complain_if_bc_breaks_VariableTracker()
        return getattr(raw, "value", None) or getattr(raw, "fn", None)
    except Exception:
        return None


def _cpu_choice(q, k, v, mask, dropout_p, is_causal, gqa):
    """The CPU dispatcher's choice for small real tensors like the traced ones (dtype, heads, head dim, grad)."""
    torch = sys.modules["torch"]

    def small(t):
        dims = [d if isinstance(d, int) else 4 for d in t.shape]
        dims[-2] = min(dims[-2], 8) if len(dims) > 1 else dims[-2]
        dims[0] = 1
        return torch.zeros(dims, dtype=t.dtype, requires_grad=bool(t.requires_grad))

    m = None if mask is None else torch.zeros([1] * (mask.dim() - 2) + [small(q).shape[-2], small(k).shape[-2]],
                                              dtype=mask.dtype)
    name = _SDP_NAMES.get(_sdpa_choice(small(q), small(k), small(v), m, dropout_p, is_causal, None, gqa), "unknown")
    return "flash (CPU)" if name == "flash" else name


def _compiled_generic(backend, name):
    def note(ctx):
        try:
            if not _on:
                return
            q = _fake(_local(ctx, "q_"))
            k, v = _fake(_local(ctx, "k_")), _fake(_local(ctx, "v_"))
            kernel = _kernel_name(backend, name, compiled=True, device_is_cuda=bool(getattr(q, "is_cuda", False)))
            if backend == "flex":
                parts = []
                for label, n, attr in (("block_mask", "bm_", "mask_mod"), ("score_mod", "sm_", None)):
                    vt = _local(ctx, n)
                    if vt is None or _const(vt, 0) is None:
                        continue
                    obj = _raw(vt)
                    fn = getattr(obj, attr, None) if attr else obj
                    parts.append(f"{label}({fn.__name__})" if getattr(fn, "__name__", None) else label)
                mask_kind = " + ".join(parts) or "none"
                kopts = _const(_local(ctx, "ko_"), None)
                if isinstance(kopts, dict) and kopts.get("BACKEND"):
                    kernel = f"{kernel}, BACKEND={kopts['BACKEND']}"
            else:
                mask_kind = "causal" if _const(_local(ctx, "causal_"), False) else "none"
            _compiled_row(backend, q, mask_kind, kernel, k, v)
        except Exception as e:
            _error(f"compiled {backend}", e)
    return note


# ----------------------------------------------------------------------------------------------
# FlexAttention, FA2/FA3/FA4, Sage, xformers: one generic wrapper
# ----------------------------------------------------------------------------------------------

def _kernel_name(backend, name, compiled=False, device_is_cuda=True):
    if backend == "flex":
        if not compiled:
            return "unfused (eager)"
        return "fused (Inductor: Triton)" if device_is_cuda else "fused (Inductor: C++)"
    return name


def _generic_mask(backend, args, kwargs):
    if backend == "flex":
        bm = kwargs.get("block_mask", args[4] if len(args) > 4 else None)
        sm = kwargs.get("score_mod", args[3] if len(args) > 3 else None)
        parts = []
        if bm is not None:
            mm = getattr(bm, "mask_mod", None)
            parts.append(f"block_mask({getattr(mm, '__name__', '?')})" if mm is not None else "block_mask")
        if sm is not None:
            parts.append(f"score_mod({getattr(sm, '__name__', '?')})")
        return " + ".join(parts) or "none"
    if backend == "xformers":
        bias = kwargs.get("attn_bias", args[3] if len(args) > 3 else None)
        return "none" if bias is None else type(bias).__name__
    causal = kwargs.get("causal", kwargs.get("is_causal"))
    if causal is None and backend in ("fa2", "fa3") and len(args) > 5:
        causal = args[5]  # flash_attn_func(q, k, v, dropout_p, softmax_scale, causal, ...)
    kind = "causal" if causal else "none"
    ws = kwargs.get("window_size")
    if ws is not None and tuple(ws) not in ((-1, -1), (None, None)):
        kind += f", window {tuple(ws)}"
    return kind


def _xformers_op(args, kwargs, q):
    op = kwargs.get("op")
    if op is not None:
        first = op[0] if isinstance(op, (tuple, list)) else op
        return getattr(first, "NAME", getattr(first, "__name__", str(first)))
    from xformers.ops.fmha.common import Inputs
    from xformers.ops.fmha.dispatch import _dispatch_fw

    inp = Inputs(query=q, key=args[1] if len(args) > 1 else kwargs.get("key"),
                 value=args[2] if len(args) > 2 else kwargs.get("value"),
                 attn_bias=kwargs.get("attn_bias", args[3] if len(args) > 3 else None),
                 p=kwargs.get("p", args[4] if len(args) > 4 else 0.0), scale=kwargs.get("scale"))
    try:  # xformers asks the same question inside memory_efficient_attention
        chosen = _dispatch_fw(inp, bool(getattr(q, "requires_grad", False)))
    except TypeError:  # xformers < 0.0.21: no needs_gradient
        chosen = _dispatch_fw(inp)
    return getattr(chosen, "NAME", getattr(chosen, "__name__", str(chosen)))


def _swallowed_kwargs(fn):
    """The parameters `fn` declares, where it takes **kwargs and never reads them (SageAttention's sageattn in 1.0.6 and
    2.x: an attn_mask or dropout_p passed to it is dropped without a word); None otherwise, or where its code cannot be
    read. Read once per wrapped function, from its signature and its bytecode (no call)."""
    try:
        import dis
        import inspect

        fn = inspect.unwrap(fn)
        params = inspect.signature(fn).parameters.values()
        var_kw = [p.name for p in params if p.kind == p.VAR_KEYWORD]
        if not var_kw or not hasattr(fn, "__code__"):
            return None
        for i in dis.get_instructions(fn):  # LOAD_FAST, LOAD_DEREF, LOAD_CLOSURE; 3.13's LOAD_FAST_LOAD_FAST names a pair
            if i.opname.startswith("LOAD_") and (i.argval == var_kw[0] or isinstance(i.argval, tuple) and var_kw[0] in i.argval):
                return None  # it reads them (forwards or inspects them)
        return frozenset(p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))
    except Exception:
        return None


def _generic_row(key_, row, backend, name, args, kwargs, q, raised, declared=None):
    try:
        if declared is not None:  # keywords the function dropped: passed with a value, declared nowhere, never read
            dropped = sorted(k for k, v in kwargs.items() if k not in declared and v is not None and v is not False
                             and not (type(v) in (int, float) and v == 0))  # dropout_p=0.0: dropping it changes nothing
            if dropped:
                row["ignored"] = dropped
        row["mask"] = _generic_mask(backend, args, kwargs)
        if row.get("ignored"):
            row["mask"] += f" ({', '.join(row['ignored'])} dropped)"
        row["kernel"] = _kernel_name(backend, name, device_is_cuda=bool(q.is_cuda))
        if backend == "xformers":
            try:
                row["kernel"] = _xformers_op(args, kwargs, q)
            except Exception as e:
                _error("xformers op", e)
        if backend == "flex":
            ko = kwargs.get("kernel_options")
            if isinstance(ko, dict) and ko.get("BACKEND"):
                row["kernel"] += f", BACKEND={ko['BACKEND']}"
        if backend == "sage" and kwargs.get("tensor_layout"):
            row["layout"] = kwargs["tensor_layout"]
    except Exception as e:
        _error(f"{backend} kernel", e)
    _finish(key_, row, raised)


def _make_generic(orig, backend, qualname):
    name = qualname.rsplit(".", 1)[-1]
    note = _compiled_generic(backend, name)
    declared = _swallowed_kwargs(orig)

    @functools.wraps(orig)
    def wrapper(*args, **kwargs):
        if _is_compiling():
            if _comptime is not None:  # named locals for the comptime callback to read (no graph op)
                q_ = args[0] if args else kwargs.get("query", kwargs.get("q"))  # noqa: F841
                k_ = args[1] if len(args) > 1 else kwargs.get("key", kwargs.get("k"))  # noqa: F841
                v_ = args[2] if len(args) > 2 else kwargs.get("value", kwargs.get("v"))  # noqa: F841
                bm_ = kwargs.get("block_mask", args[4] if len(args) > 4 else None)  # noqa: F841
                sm_ = kwargs.get("score_mod", args[3] if len(args) > 3 else None)  # noqa: F841
                ko_ = kwargs.get("kernel_options")  # noqa: F841
                causal_ = kwargs.get("causal", kwargs.get("is_causal", False))  # noqa: F841
                _comptime(note)
            return orig(*args, **kwargs)
        rec = key_ = f = q = None
        if _on:
            try:
                q = args[0] if args else kwargs.get("query", kwargs.get("q"))
                if isinstance(q, _Tensor):
                    f = _site_frame(_getframe(1))
                    key_ = (id(f.f_code), f.f_lasti, backend, name, q.dtype, q.is_cuda, q.shape[-1], q.requires_grad,
                            bool(kwargs.get("causal", kwargs.get("is_causal", False))), len(args), len(kwargs),
                            None if declared is None else tuple(k for k, v in kwargs.items() if v is not None))
                    rec = _st.table.get(key_)
                    if rec is not None:
                        rec[0] += 1
            except Exception as e:
                _error(backend, e)
                key_ = None
        if rec is not None or key_ is None:
            if _limits:
                _check_limits()
            return orig(*args, **kwargs)
        row = _new_row(backend, f, _getframe(1), q, args[1] if len(args) > 1 else kwargs.get("key", kwargs.get("k")),
                       args[2] if len(args) > 2 else kwargs.get("value", kwargs.get("v")))
        row["entry"] = qualname
        _tls.depth += 1
        prev, _tls.outer = _tls.outer, row
        try:
            out = orig(*args, **kwargs)
        except BaseException as e:  # recorded (a trainer may catch it and fall back), then raised as it was
            _tls.depth -= 1
            _tls.outer = prev
            _generic_row(key_, row, backend, name, args, kwargs, q, e, declared)
            raise
        _tls.depth -= 1
        _tls.outer = prev
        _generic_row(key_, row, backend, name, args, kwargs, q, None, declared)
        return out

    return wrapper


# ----------------------------------------------------------------------------------------------
# what gets wrapped, when its module is imported
# ----------------------------------------------------------------------------------------------

def _backend_of_module(mod):
    mod = mod or ""
    if mod.startswith("flash_attn.cute"):
        return "cute"
    if mod.startswith("flash_attn_interface") or mod.startswith("flash_attn_3"):
        return "fa3"
    if mod.startswith("flash_attn"):
        return "fa2"
    if mod.startswith("sageattention"):
        return "sage"
    if mod.startswith("xformers"):
        return "xformers"
    if mod.startswith("torch.nn.attention.flex_attention"):
        return "flex"
    if mod.startswith("torch._C._nn") or mod == "torch.nn.functional":
        return "sdpa"
    return None


def _wrap(mod, attr, backend):
    if _Tensor is None:  # torch not imported, or too old to trace safely
        return None
    orig = getattr(mod, attr, None)
    if orig is None or not callable(orig):
        return None
    if id(orig) in _ORIGINALS:  # already one of ours
        return orig
    w = _WRAPPERS.get(id(orig))
    if w is None:
        qual = f"{getattr(orig, '__module__', None) or mod.__name__}.{getattr(orig, '__qualname__', attr)}"
        w = _make_generic(orig, backend, qual)
        _WRAPPERS[id(orig)] = w
        _ORIGINALS[id(w)] = (orig, backend, qual)
    setattr(mod, attr, w)
    return w


_FA_NAMES = ("flash_attn_func", "flash_attn_varlen_func", "flash_attn_qkvpacked_func", "flash_attn_kvpacked_func",
             "flash_attn_varlen_qkvpacked_func", "flash_attn_varlen_kvpacked_func", "flash_attn_with_kvcache")


def _patch_torch(torch):
    global _Tensor, _is_compiling, _sdpa_flags, _sdpa_wrapper, _fa_registry
    try:
        _LIB_DIRS.append(os.path.dirname(os.path.abspath(torch.__file__)) + os.sep)
    except Exception:
        pass
    _st.torch_version = getattr(torch, "__version__", None)
    # Dynamo folds this call to True while it traces, so the wrappers' bookkeeping never enters a graph.
    comp = getattr(getattr(torch, "compiler", None), "is_compiling", None)  # torch >= 2.3
    if comp is None:
        comp = getattr(getattr(torch, "_utils", None), "is_compiling", None)  # torch 2.1, 2.2
    if comp is None:  # without it a compiled model would trace the bookkeeping: wrap nothing
        _error("torch", RuntimeError(f"torch {_st.torch_version} has no is_compiling(): attention is not traced"))
        return
    _is_compiling = comp
    _Tensor = torch.Tensor  # set: the wrappers may be installed
    C = torch._C
    _sdpa_flags = (C._get_flash_sdp_enabled, C._get_mem_efficient_sdp_enabled, C._get_math_sdp_enabled,
                   getattr(C, "_get_cudnn_sdp_enabled", lambda: False))
    _fa_registry = sys.modules.get("torch.nn.attention._registry")
    F = torch.nn.functional
    cur = F.scaled_dot_product_attention
    builtin = getattr(C._nn, "scaled_dot_product_attention", None)
    if cur is builtin:
        has_gqa = "enable_gqa" in (getattr(builtin, "__doc__", "") or "")
        _sdpa_wrapper = _make_sdpa(builtin, has_gqa)
        _ORIGINALS[id(_sdpa_wrapper)] = (builtin, "sdpa", "torch.nn.functional.scaled_dot_product_attention")
        F.scaled_dot_product_attention = _sdpa_wrapper
        try:  # TorchScript compiles a call to it as the aten op, as it did before
            from torch.jit import _builtins

            _builtins._register_builtin(_sdpa_wrapper, "aten::scaled_dot_product_attention")
        except Exception as e:
            _error("torch.jit builtin", e)
    elif id(cur) not in _ORIGINALS:
        _note_patch("torch.nn.functional.scaled_dot_product_attention", cur)
    try:
        from torch.optim.optimizer import register_optimizer_step_post_hook

        global _step_hook
        _step_hook = register_optimizer_step_post_hook(_on_step)
    except Exception as e:
        _error("optimizer hook", e)


def _patch_module(name, mod):
    if name == "torch":
        _patch_torch(mod)
    elif name == "torch._dynamo":
        global _comptime
        from torch._dynamo.comptime import comptime

        _comptime = comptime
    elif name == "torch.nn.attention.flex_attention":
        global _flex_wrapper
        _flex_wrapper = _wrap(mod, "flex_attention", "flex")
    elif name == "torch.nn.attention._registry":
        global _fa_registry
        _fa_registry = mod
    elif name in ("flash_attn.flash_attn_interface", "flash_attn"):
        for a in _FA_NAMES:
            _wrap(mod, a, "fa2")
    elif name in ("flash_attn.cute.interface", "flash_attn.cute"):
        for a in ("flash_attn_func", "flash_attn_varlen_func"):
            _wrap(mod, a, "cute")
    elif name == "flash_attn_interface":
        for a in _FA_NAMES:
            _wrap(mod, a, "fa3")
    elif name == "sageattention":
        for a in dir(mod):
            if a.startswith("sageattn") and callable(getattr(mod, a, None)):
                _wrap(mod, a, "sage")
    elif name in ("xformers.ops.fmha", "xformers.ops"):
        for a in ("memory_efficient_attention", "memory_efficient_attention_forward"):
            _wrap(mod, a, "xformers")


WATCH = ("torch", "torch._dynamo", "torch.nn.attention._registry", "torch.nn.attention.flex_attention",
         "flash_attn.flash_attn_interface", "flash_attn", "flash_attn.cute.interface", "flash_attn.cute",
         "flash_attn_interface", "sageattention", "xformers.ops.fmha", "xformers.ops")


def _after_import(name, module):
    if name in _st.installed:
        return
    _st.installed.add(name)
    try:
        _patch_module(name, module)
    except Exception as e:
        _error(f"patch {name}", e)


class _Finder:
    """On sys.meta_path: finds nothing itself; for the modules in WATCH it lets the other finders find
    them and patches the module right after its code has run (before the importer gets it)."""

    def __init__(self):
        self.busy = set()

    def find_spec(self, name, path=None, target=None):
        if name not in WATCH or name in self.busy or name in _st.installed:
            return None
        self.busy.add(name)
        try:
            spec = None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(name, path, target)
                if spec is not None:
                    break
            loader = getattr(spec, "loader", None)
            if loader is None or not hasattr(loader, "exec_module"):
                return spec
            real = loader.exec_module

            def exec_module(module):
                try:
                    real(module)
                finally:
                    try:
                        del loader.exec_module  # back to the class's method: the loader may be shared
                    except Exception:
                        pass
                _after_import(getattr(module, "__name__", name), module)

            loader.exec_module = exec_module
            return spec
        except Exception as e:
            _error(f"find {name}", e)
            return None
        finally:
            self.busy.discard(name)


_finder = None


# ----------------------------------------------------------------------------------------------
# patched entry points
# ----------------------------------------------------------------------------------------------

def _describe(fn):
    """What a replacement function is: (qualified name, backend or None, defined at)."""
    if id(fn) in _ORIGINALS:
        orig, backend, qual = _ORIGINALS[id(fn)]
        return qual, backend, None
    seen = 0
    g = fn
    while g is not None and seen < 8:  # functools.wraps chains: the first known backend under it
        if id(g) in _ORIGINALS:
            orig, backend, qual = _ORIGINALS[id(g)]
            return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')} (wraps {qual})", backend, _defined(fn)
        b = _backend_of_module(getattr(g, "__module__", None))
        if b and g is not fn:
            return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}", b, _defined(fn)
        g = getattr(g, "__wrapped__", None)
        seen += 1
    mod = getattr(fn, "__module__", None)
    return f"{mod}.{getattr(fn, '__qualname__', repr(fn))}", _backend_of_module(mod), _defined(fn)


def _defined(fn):
    code = getattr(fn, "__code__", None)
    return f"{code.co_filename}:{code.co_firstlineno}" if code is not None else None


def _note_patch(entry, fn):
    if entry in _st.patched:
        return
    by, backend, defined = _describe(fn)
    _st.patched[entry] = {"entry": entry, "by": by, "backend": backend, "defined": defined}


def _check_patches():
    try:
        F = sys.modules.get("torch.nn.functional")
        if F is not None and _sdpa_wrapper is not None:
            cur = getattr(F, "scaled_dot_product_attention", None)
            if cur is not _sdpa_wrapper:
                _note_patch("torch.nn.functional.scaled_dot_product_attention", cur)
        fx = sys.modules.get("torch.nn.attention.flex_attention")
        if fx is not None and _flex_wrapper is not None and getattr(fx, "flex_attention", None) is not _flex_wrapper:
            _note_patch("torch.nn.attention.flex_attention.flex_attention", fx.flex_attention)
        _check_transformers()
    except Exception as e:
        _error("patch check", e)


_HF_DEFAULTS = {"sdpa": ("transformers.integrations.sdpa_attention", "sdpa_attention_forward"),
                "flex_attention": ("transformers.integrations.flex_attention", "flex_attention_forward"),
                "flash_attention_2": ("transformers.integrations.flash_attention", "flash_attention_forward")}


def _check_transformers():
    """A trainer that swaps the function transformers runs for attn_implementation='sdpa' (or flex,
    FA2) through its AttentionInterface registry."""
    mu = sys.modules.get("transformers.modeling_utils")
    reg = getattr(mu, "ALL_ATTENTION_FUNCTIONS", None) if mu is not None else None
    if reg is None:
        return
    mapping = getattr(reg, "_global_mapping", None)
    if not isinstance(mapping, dict):
        return
    for impl, (modname, fname) in _HF_DEFAULTS.items():
        m = sys.modules.get(modname)
        default = getattr(m, fname, None) if m is not None else None
        cur = mapping.get(impl)
        if default is not None and cur is not None and cur is not default:
            _note_patch(f"transformers ALL_ATTENTION_FUNCTIONS[{impl!r}]", cur)


# ----------------------------------------------------------------------------------------------
# steps, limits, stopping
# ----------------------------------------------------------------------------------------------

def _total():
    return sum(rec[0] for rec in list(_st.table.values()))


def _on_step(optimizer, args, kwargs):
    if _is_compiling():  # a compiled optimizer step: never trace the hook's bookkeeping into it
        return
    try:
        _st.steps += 1
        total = _total()
        if total != _st.last_total or any(r[1].get("compiled") for r in list(_st.table.values())):
            _st.attention_steps += 1
        _st.last_total = total
        if _st.data_dir and _monotonic() - _st.last_write > STEP_WRITE_EVERY:
            _write()  # counts survive a process that ends without atexit (os._exit, a crash, SIGKILL)
    except Exception as e:
        _error("step", e)
    if _limits:
        _check_limits()


def _main_thread():
    return threading.current_thread() is threading.main_thread()


def _check_limits():
    why = None
    if _st.max_steps is not None and _st.attention_steps >= _st.max_steps:
        why = "steps"
    elif _st.deadline is not None and _monotonic() >= _st.deadline:
        why = "seconds"
    if why is None or _st.stopped or not _main_thread():
        return
    _stop(why)


def _stop(why):
    global _limits
    _st.stopped = why
    _limits = False
    _write()
    raise SystemExit(0)


def _arm_watchdog():
    """With --seconds: a program that stops calling attention (or stepping) is interrupted a little after
    the deadline, from a thread, as Ctrl-C would."""
    if _st.deadline is None or _st.watchdog is not None or not _st.data_dir:
        return
    import _thread

    def watch():
        time.sleep(max(0.0, _st.deadline - _monotonic()) + 10.0)
        if _st.stopped is None:
            _st.stopped = "seconds"
            _write()
            _thread.interrupt_main()

    t = threading.Thread(target=watch, name="attn-doctor-trace-watchdog", daemon=True)
    _st.watchdog = t
    t.start()


# ----------------------------------------------------------------------------------------------
# the data: rows, written per process
# ----------------------------------------------------------------------------------------------

def rows():
    """Every row seen so far, with its count (a copy)."""
    out = []
    for rec in list(_st.table.values()):
        r = dict(rec[1])
        r["count"] = rec[0]
        out.append(r)
    out.sort(key=lambda r: r.get("first_seen") or 0)
    return out


def snapshot():
    _check_patches()
    env = os.environ
    return {
        "schema": SCHEMA, "pid": _st.pid, "ppid": os.getppid(),
        "rank": env.get("RANK"), "local_rank": env.get("LOCAL_RANK"), "world_size": env.get("WORLD_SIZE"),
        "argv": [str(a)[:200] for a in sys.argv[:8]], "python": sys.executable, "cwd": os.getcwd(),
        "torch": _st.torch_version, "seconds": round(_monotonic() - _st.started, 3),
        "steps": _st.steps, "attention_steps": _st.attention_steps, "stopped": _st.stopped,
        "rows": rows(), "errors": list(_st.errors), "error_count": _st.error_count,
        "patched": list(_st.patched.values()),
    }


def _write():
    d = _st.data_dir
    if not d or os.getpid() != _st.pid:
        return
    try:
        data = snapshot()
        path = os.path.join(d, f"proc-{_st.pid}.json")
        tmp = f"{path}.{threading.get_ident()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh, default=str)
        os.replace(tmp, path)
        _st.last_write = _monotonic()
    except Exception as e:
        _error("write", e)


def _after_fork():
    """A forked child (a DataLoader worker) starts with an empty table: it must not report the parent's."""
    global _st
    old = _st
    new = _State()
    new.data_dir, new.torch_version, new.installed = old.data_dir, old.torch_version, old.installed
    new.max_steps = None
    new.deadline = None
    _st = new


# ----------------------------------------------------------------------------------------------
# starting
# ----------------------------------------------------------------------------------------------

def install():
    """Wrap what is imported already and watch for the rest. Idempotent."""
    global _finder, _on
    _on = True
    if _finder is None:
        _finder = _Finder()
        sys.meta_path.insert(0, _finder)
        try:
            os.register_at_fork(after_in_child=_after_fork)
        except Exception:
            pass
    for name in WATCH:
        mod = sys.modules.get(name)
        if mod is not None:
            _after_import(name, mod)
    return sys.modules[__name__]


def start_from_env():
    """Called by the sitecustomize of `attn-doctor trace`: install, then write this process's data at exit."""
    global _limits
    env = os.environ
    _st.data_dir = env.get(ENV_DIR) or None
    try:
        if env.get(ENV_STEPS):
            _st.max_steps = max(1, int(env[ENV_STEPS]))
        if env.get(ENV_SECONDS):
            _st.deadline = _st.started + float(env[ENV_SECONDS])
    except ValueError as e:
        _error("limits", e)
    _limits = _st.max_steps is not None or _st.deadline is not None
    install()
    atexit.register(_write)
