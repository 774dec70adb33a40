"""FAKE FAULTS, for tests/test_hardening.py and scripts/gpu/hardening.sh. Not part of attn-doctor.

With this directory on PYTHONPATH, Python imports this file at start-up in every process. It then
breaks the REAL torch in whichever process imports it, as the environment says; the doctor's own
process never imports torch, so only its children (the torch probe, the smoke children) are hit,
and the whole real doctor runs end to end against a torch whose attention misbehaves.

ATTN_DOCTOR_TEST_SDPA_FAULT   what torch.nn.functional.scaled_dot_product_attention does when called:
    segfault    kill its own process with SIGSEGV
    hang        sleep forever
    nan         return the right output with its last column NaN (an unwritten element)
    wrong       return the right output times 1.5
    flood       print 8 MiB on stdout and stderr (the last 4 MiB of each without a newline), then answer
    grandchild  start a process that sleeps an hour, then answer
    oom         allocate GPU memory 1 GiB at a time until torch raises OutOfMemoryError (GPU only)
ATTN_DOCTOR_TEST_TORCH_FAULT  flood: print 8 MiB without a newline on stdout and stderr during `import torch`
ATTN_DOCTOR_TEST_PIDFILE      hang and grandchild append the pid that must not outlive the doctor here
"""

import os
import sys

_SDPA = os.environ.get("ATTN_DOCTOR_TEST_SDPA_FAULT")
_TORCH = os.environ.get("ATTN_DOCTOR_TEST_TORCH_FAULT")


def _note_pid(pid: int) -> None:
    path = os.environ.get("ATTN_DOCTOR_TEST_PIDFILE")
    if path:
        with open(path, "a") as fh:
            fh.write(f"{pid}\n")


def _flood() -> None:
    line = "x" * 1023 + "\n"
    for _ in range(4 * 1024):
        sys.stdout.write(line)
        sys.stderr.write(line)
    sys.stdout.flush()
    sys.stderr.flush()
    os.write(1, b"y" * (4 << 20))
    os.write(2, b"z" * (4 << 20))


def _broken(real):
    import signal
    import subprocess
    import time

    once = []

    def scaled_dot_product_attention(*args, **kwargs):
        first = not once
        once.append(1)
        if _SDPA == "segfault":
            os.kill(os.getpid(), signal.SIGSEGV)
        if _SDPA == "hang":
            _note_pid(os.getpid())
            while True:
                time.sleep(1)
        if _SDPA == "oom":
            import torch

            if args[0].device.type != "cuda":
                raise RuntimeError("the oom fault is for a GPU: it would exhaust the CPU's memory")
            hog = []
            while True:
                hog.append(torch.empty(1 << 30, dtype=torch.uint8, device=args[0].device))
        if _SDPA == "flood" and first:
            _flood()
        if _SDPA == "grandchild" and first:
            _note_pid(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"]).pid)
        out = real(*args, **kwargs)
        if _SDPA == "nan":
            out = out.clone()
            out[..., -1] = float("nan")
        elif _SDPA == "wrong":
            out = out * 1.5
        return out

    return scaled_dot_product_attention


if _SDPA or _TORCH:
    import importlib.abc
    import importlib.machinery

    class _Patcher(importlib.abc.MetaPathFinder):
        """Lets torch import as usual, then swaps its SDPA for the broken one."""

        def find_spec(self, name, path=None, target=None):
            if name == "torch" and _TORCH == "flood" and not getattr(self, "flooded", False):
                self.flooded = True
                _flood()
            if name != "torch.nn.functional" or not _SDPA:
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is None or spec.loader is None:
                return spec
            real_exec = spec.loader.exec_module

            def exec_module(module):
                real_exec(module)
                module.scaled_dot_product_attention = _broken(module.scaled_dot_product_attention)

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _Patcher())
