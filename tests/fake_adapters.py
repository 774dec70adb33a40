"""Fake attention backends for the smoke-test runner, planted with known defects.

Each is a real adapter (load/forward/varlen) run in a real child process by
attn_doctor.smoke.child; they wrap torch's SDPA on the CPU and then break it on purpose. They fake
the *backend*, not the doctor: the runner, the float64 reference and the comparisons are real.
"""

import os
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

from attn_doctor.backends import sdpa as _sdpa


def _load(torch):
    return torch.nn.functional.scaled_dot_product_attention


def _good_forward(h, torch, q, k, v, *, causal, scale):
    return _sdpa.forward(h, torch, q, k, v, causal=causal, scale=scale)


def _good_varlen(h, torch, q, k, v, **kw):
    return _sdpa.varlen(h, torch, q, k, v, **kw)


def _row_off_forward(h, torch, q, k, v, *, causal, scale):
    out = _good_forward(h, torch, q, k, v, causal=causal, scale=scale).clone()
    out[0, 5, 0] = out[0, 6, 0]  # one query row answers with its neighbour's output
    return out


def _leaky_varlen(h, torch, q, k, v, *, cu_q, cu_k, max_q, max_k, causal, scale):
    # Ignores the sequence boundaries and the padding: plain causal attention over the whole buffer.
    return _good_forward(h, torch, q[None], k[None], v[None], causal=causal, scale=scale)[0]


def _mutates_k_forward(h, torch, q, k, v, *, causal, scale):
    # sageattention 1.0.6's smoothing: the mean over the sequence subtracted from the caller's k in place. The output
    # stays right (softmax does not see a shift shared by every key): only a comparison of the inputs can tell.
    # (SageAttention 1.x has no backward: the smoke's backward pass, with leaves that require grad, is left alone)
    if not k.requires_grad:
        k -= k.mean(dim=1, keepdim=True)
    return _good_forward(h, torch, q, k, v, causal=causal, scale=scale)


def _nan_forward(h, torch, q, k, v, *, causal, scale):
    out = _good_forward(h, torch, q, k, v, causal=causal, scale=scale).clone()
    out[..., -1] = float("nan")  # the last element of every row never written
    return out


def _segfault_forward(h, torch, q, k, v, *, causal, scale):
    os.kill(os.getpid(), signal.SIGSEGV)


def _hang_forward(h, torch, q, k, v, *, causal, scale):
    while True:
        time.sleep(1)


def _oom_forward(h, torch, q, k, v, *, causal, scale):
    raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of "
                                 "79.19 GiB of which 3.06 MiB is free.")


_SPAWNED = []  # what the first call of a planted defect did once per process


def _flood_forward(h, torch, q, k, v, *, causal, scale):
    # Once: 8 MiB on each stream, through Python and then straight to the descriptors without a newline.
    if "flood" not in _SPAWNED:
        _SPAWNED.append("flood")
        line = "x" * 1023 + "\n"
        for _ in range(4 * 1024):
            sys.stdout.write(line)
            sys.stderr.write(line)
        sys.stdout.flush()
        sys.stderr.flush()
        os.write(1, b"y" * (4 << 20))
        os.write(2, b"z" * (4 << 20))
    return _good_forward(h, torch, q, k, v, causal=causal, scale=scale)


def _grandchild_forward(h, torch, q, k, v, *, causal, scale):
    # Starts a process that would sleep for an hour, once, and says its pid on stderr.
    if "grandchild" not in _SPAWNED:
        _SPAWNED.append("grandchild")
        p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        sys.stderr.write(f"GRANDCHILD_PID={p.pid}\n")
        sys.stderr.flush()
    return _good_forward(h, torch, q, k, v, causal=causal, scale=scale)


def _oom_real_forward(h, torch, q, k, v, *, causal, scale):
    # Really exhausts GPU memory, 1 GiB at a time, until the allocator raises torch.OutOfMemoryError.
    if q.device.type != "cuda":
        raise RuntimeError("oom_real is for a GPU: it would exhaust the CPU's memory")
    hog = []
    while True:
        hog.append(torch.empty(1 << 30, dtype=torch.uint8, device=q.device))


def _d64_not_built_forward(h, torch, q, k, v, *, causal, scale):
    # A reduced FlashAttention build without head dim 64 (scripts/gpu/fa2_reduce.py's words)
    if q.shape[-1] == 64:
        raise RuntimeError("This flash attention build does not support head dim 64: it was built with the kernels "
                           "of head dims 128 only (a reduced build)")
    return _good_forward(h, torch, q, k, v, causal=causal, scale=scale)


good = SimpleNamespace(load=_load, forward=_good_forward, varlen=_good_varlen)
d64_not_built = SimpleNamespace(load=_load, forward=_d64_not_built_forward, varlen=_good_varlen)
one_row_off = SimpleNamespace(load=_load, forward=_row_off_forward, varlen=_good_varlen)
leaky_varlen = SimpleNamespace(load=_load, forward=_good_forward, varlen=_leaky_varlen)
nan_output = SimpleNamespace(load=_load, forward=_nan_forward, varlen=_good_varlen)
mutates_k = SimpleNamespace(load=_load, forward=_mutates_k_forward, varlen=_good_varlen)
segfault = SimpleNamespace(load=_load, forward=_segfault_forward, varlen=_good_varlen)
hang = SimpleNamespace(load=_load, forward=_hang_forward, varlen=_good_varlen)
oom = SimpleNamespace(load=_load, forward=_oom_forward, varlen=_good_varlen)
flood = SimpleNamespace(load=_load, forward=_flood_forward, varlen=_good_varlen)
grandchild = SimpleNamespace(load=_load, forward=_grandchild_forward, varlen=_good_varlen)
oom_real = SimpleNamespace(load=_load, forward=_oom_real_forward, varlen=_good_varlen)


def _bench_good(h, torch, *, causal, scale, seqlen, device, variant=None, gqa=False):
    return "bshd", lambda q, k, v: _good_forward(h, torch, q, k, v, causal=causal, scale=scale)


def _bench_wrong(h, torch, *, causal, scale, seqlen, device, variant=None, gqa=False):
    # fast and wrong: attention over the keys in the wrong order of magnitude (scale x 3)
    return "bshd", lambda q, k, v: _good_forward(h, torch, q, k, v, causal=causal, scale=scale * 3)


bench_good = SimpleNamespace(load=_load, forward=_good_forward, varlen=_good_varlen, bench_call=_bench_good)
bench_wrong = SimpleNamespace(load=_load, forward=_good_forward, varlen=_good_varlen, bench_call=_bench_wrong)
