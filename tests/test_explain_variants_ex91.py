"""Variants for session 14's helper ex91 (where an error was raised: knowledge/triage.toml ex91.raised-beneath-*, knowledge/attribution/
`interrupted`; benchmarks/results/explain-ex91.md). Every text was written by hand from the mechanism, NOT copied from a
thread: tracebacks that go into a backend's code and end beneath it, in the torch or Triton runtime it calls, with an
exception no rule knows; under other roots (Windows, conda, venv, site-packages, dist-packages, an editable checkout),
other wrappers (vLLM, diffusers, ComfyUI, transformers), other exception types and log prefixes. Near misses say what must
NOT happen: a traceback that passes through a backend's frame on its way elsewhere (a layer's matmul, a dataloader, an
interrupt, an OOM) is not read as the backend's.
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

ROOTS = {
    "venv": "/home/u/.venv/lib/python3.12/site-packages",
    "conda": "/opt/conda/envs/train/lib/python3.11/site-packages",
    "dist": "/usr/local/lib/python3.10/dist-packages",
    "win": "C:\\Users\\me\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages",
    "win-conda": "D:\\miniconda3\\envs\\wan\\Lib\\site-packages",
}
# the backend's own frames (relative to the root; an editable checkout is its own root), the call that goes down
BACKEND = {
    "fa2": [("flash_attn/flash_attn_interface.py", 1201, "flash_attn_varlen_func", "return FlashAttnVarlenFunc.apply("),
            ("flash_attn/flash_attn_interface.py", 661, "forward", "out, lse, S, rng = _wrapped_flash_attn_varlen_forward(")],
    "fa3": [("flash_attn_3/flash_attn_interface.py", 68, "_flash_attn_forward", "out, lse, *rest = flash_attn_3._C.fwd(")],
    "cute": [("flash_attn/cute/interface.py", 412, "_flash_attn_fwd", "out = _fwd_op(q, k, v, softmax_scale)")],
    "sage": [("sageattention/core.py", 160, "sageattn", "return sageattn_qk_int8_pv_fp16_cuda(q, k, v, tensor_layout=layout)"),
             ("sageattention/quant.py", 77, "per_block_int8", "quant_per_block_int8_kernel[grid](")],
    "xformers": [("xformers/ops/fmha/__init__.py", 306, "memory_efficient_attention", "return _memory_efficient_attention("),
                 ("xformers/ops/fmha/cutlass.py", 202, "apply", "out, lse, seed, offset = cls.OPERATOR(")],
    "flex": [("torch/nn/attention/flex_attention.py", 1473, "flex_attention", "out, lse = flex_attention_hop(")],
}
RUNTIME = {
    "ops": [("torch/_ops.py", 1158, "__call__", "return self._op(*args, **(kwargs or {}))")],
    "custom-op": [("torch/autograd/function.py", 575, "apply", "return super().apply(*args, **kwargs)"),
                  ("torch/_library/custom_ops.py", 671, "__call__", "return self._opoverload(*args, **kwargs)")],
    "dynamo": [("torch/_dynamo/eval_frame.py", 838, "_fn", "return fn(*args, **kwargs)"),
               ("torch/_ops.py", 1243, "__call__", "return self._op(*args, **kwargs)")],
    "triton": [("triton/runtime/jit.py", 569, "run", "kernel = self.compile(src, target=target, options=options.__dict__)"),
               ("triton/compiler/compiler.py", 284, "compile", "next_module = compile_ir(module, metadata)")],
    "hop": [("torch/_higher_order_ops/flex_attention.py", 91, "__call__", "return super().__call__(query, key, value, score_mod)"),
            ("torch/_ops.py", 471, "__call__", "return wrapper()")],
}
# a wrapper's own frames above the backend's call (outside the root: the app's files)
WRAPPERS = {
    "comfyui": ("D:\\ComfyUI\\comfy\\ldm\\modules\\attention.py", 622, "attention_sage", "out = sageattn(q, k, v, tensor_layout='HND')"),
    "diffusers": ("/srv/app/venv/lib/python3.11/site-packages/diffusers/models/attention_dispatch.py", 1311, "_sage_attention",
                  "out = sageattn(q=query, k=key, v=value, tensor_layout='NHD')"),
    "transformers": ("/srv/app/venv/lib/python3.11/site-packages/transformers/modeling_flash_attention_utils.py", 690,
                     "_flash_attention_forward", "attn_output = flash_varlen_fn("),
    "vllm": ("/usr/local/lib/python3.12/dist-packages/vllm/v1/attention/backends/flash_attn.py", 540, "forward",
             "flash_attn_varlen_func("),
}
EXCEPTIONS = [
    "RuntimeError: an internal check the rules do not know (got 3, expected 4)",
    "ValueError: an argument value the rules do not know",
    "TypeError: an argument type the rules do not know",
    "IndexError: an index the rules do not know",
    "AssertionError: a shape the rules do not know",
    "torch.AcceleratorError: a state the rules do not know",
    "triton.compiler.errors.CompilationError: at 12:4: a lowering the rules do not know",
]


def _sep(root: str) -> str:
    return "\\" if "\\" in root else "/"


def frame(root: str, rel: str, line: int, fn: str, code: str) -> str:
    sep = _sep(root)
    return f'  File "{root}{sep}{rel.replace("/", sep)}", line {line}, in {fn}\n    {code}\n'


def traceback(backend: str, runtime: str, root: str, exc: str, wrapper: str | None = None, prefix: str = "") -> str:
    text = "Traceback (most recent call last):\n"
    text += frame("/work/proj", "train.py", 210, "<module>", "loss = model(batch).loss")
    if wrapper:
        path, line, fn, code = WRAPPERS[wrapper]
        text += f'  File "{path}", line {line}, in {fn}\n    {code}\n'
    for f in BACKEND[backend] + RUNTIME[runtime]:
        text += frame(root, *f)
    text += exc + "\n"
    return "".join(prefix + ln + "\n" for ln in text.splitlines())


def first(text: str) -> tuple[str | None, str | None]:
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


@pytest.mark.parametrize("root", sorted(ROOTS))
@pytest.mark.parametrize("backend", sorted(BACKEND))
@pytest.mark.parametrize("runtime", ["ops", "custom-op", "dynamo"])
def test_raised_beneath_a_backends_call(backend, runtime, root):
    text = traceback(backend, runtime, ROOTS[root], EXCEPTIONS[0])
    assert first(text) == (f"ex91.raised-beneath-{backend}", backend)


@pytest.mark.parametrize("exc", EXCEPTIONS)
@pytest.mark.parametrize("backend,runtime", [("fa2", "custom-op"), ("sage", "triton"), ("flex", "hop"),
                                             ("xformers", "ops"), ("fa3", "ops"), ("cute", "dynamo")])
def test_other_exception_types(backend, runtime, exc):
    assert first(traceback(backend, runtime, ROOTS["conda"], exc)) == (f"ex91.raised-beneath-{backend}", backend)


@pytest.mark.parametrize("wrapper,backend", [("comfyui", "sage"), ("diffusers", "sage"), ("transformers", "fa2"),
                                             ("vllm", "fa2"), ("diffusers", "xformers"), ("comfyui", "flex")])
def test_under_a_wrapper(wrapper, backend):
    text = traceback(backend, "ops", ROOTS["win"] if wrapper == "comfyui" else ROOTS["dist"], EXCEPTIONS[2], wrapper)
    assert first(text) == (f"ex91.raised-beneath-{backend}", backend)


@pytest.mark.parametrize("prefix", ["[rank0]: ", "[rank3]:", "(VllmWorker rank=0 pid=4121) ", "worker-1  | "])
def test_log_prefixes(prefix):
    text = traceback("fa2", "custom-op", ROOTS["venv"], EXCEPTIONS[0], prefix=prefix)
    assert first(text) == ("ex91.raised-beneath-fa2", "fa2")


def test_an_editable_checkout():
    # FA3 built from the repository's hopper/ folder (pip install -e), and FA2 from a checkout on Windows
    fa3 = ("Traceback (most recent call last):\n"
           '  File "/workspace/flash-attention/hopper/flash_attn_interface.py", line 255, in forward\n'
           "    out, softmax_lse, *rest = _flash_attn_forward(\n"
           '  File "/usr/local/lib/python3.10/dist-packages/torch/_library/custom_ops.py", line 671, in __call__\n'
           "    return self._opoverload(*args, **kwargs)\n"
           "RuntimeError: a check the rules do not know\n")
    assert first(fa3) == ("ex91.raised-beneath-fa3", "fa3")
    fa2 = traceback("fa2", "ops", "E:\\src\\flash-attention", EXCEPTIONS[1])
    assert first(fa2) == ("ex91.raised-beneath-fa2", "fa2")


def test_a_known_message_still_wins():
    # the message is one an entry knows: that entry explains it, the structural reading does not replace it
    text = traceback("fa2", "custom-op", ROOTS["venv"], "RuntimeError: FlashAttention only supports Ampere GPUs or newer.")
    found = match(text)
    assert found and found[0].entry.id != "ex91.raised-beneath-fa2" and found[0].backend == "fa2"
    text = traceback("sage", "ops", ROOTS["win"], "RuntimeError: CUDA error: no kernel image is available for execution on the device")
    assert match(text)[0].entry.id != "ex91.raised-beneath-sage"


def test_innermost_in_the_backend_stays_raised_in():
    # the innermost frame in the backend's own file: triage.raised-in-* reads it, as before
    text = ("Traceback (most recent call last):\n"
            '  File "/venv/lib/python3.11/site-packages/sageattention/core.py", line 140, in sageattn\n'
            "    raise ValueError('a value the rules do not know')\n"
            "ValueError: a value the rules do not know\n")
    assert first(text) == ("triage.raised-in-sage", "sage")


# ---- near misses: tracebacks that pass through a backend's frame on their way elsewhere -----------------------------

def _through(backend_frame: str, below: str, exc: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/work/train.py", line 88, in <module>\n    out = model(x)\n' + backend_frame + below + exc + "\n")


FA2_MHA = ('  File "/opt/conda/lib/python3.11/site-packages/flash_attn/modules/mha.py", line 640, in forward\n'
           "    qkv = self.Wqkv(x)\n")
FA2_CALL = ('  File "/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 1168, in flash_attn_func\n'
            "    return FlashAttnFunc.apply(\n")
AUTOGRAD = ('  File "/venv/lib/python3.10/site-packages/torch/autograd/function.py", line 575, in apply\n'
            "    return super().apply(*args, **kwargs)\n")
OPS = ('  File "/venv/lib/python3.10/site-packages/torch/_ops.py", line 1158, in __call__\n'
       "    return self._op(*args, **(kwargs or {}))\n")


@pytest.mark.parametrize("text", [
    # a layer of the backend's package calls torch's Linear: the matmul's shapes are the user's model, not FA2's kernel
    _through(FA2_MHA, '  File "/opt/conda/lib/python3.11/site-packages/torch/nn/modules/linear.py", line 125, in forward\n'
             "    return F.linear(input, self.weight, self.bias)\n",
             "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4096x1024 and 2048x3072)"),
    # Ctrl-C while the kernel ran, and an exit
    _through(FA2_CALL, AUTOGRAD, "KeyboardInterrupt"),
    "[rank1]: " + _through(FA2_CALL, AUTOGRAD + OPS, "KeyboardInterrupt").replace("\n", "\n[rank1]: "),
    _through(FA2_CALL, OPS, "SystemExit: 1"),
    # a dataloader's error under a backend's benchmark helper
    ("Traceback (most recent call last):\n"
     '  File "/home/u/venv/lib/python3.10/site-packages/xformers/benchmarks/utils.py", line 210, in benchmark_main_helper\n'
     "    results = run(func, kwargs)\n"
     '  File "/home/u/proj/data.py", line 12, in load_shapes\n    with open(path) as f:\n'
     "FileNotFoundError: [Errno 2] No such file or directory: 'shapes.json'"),
])
def test_passing_through_is_not_claimed(text):
    found = match(text)
    assert not any(m.entry.id.startswith("ex91.") for m in found)
    assert not any(m.backend not in (None, "none") for m in found), [(m.entry.id, m.backend) for m in found]


@pytest.mark.parametrize("exc", [
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB",
    "ImportError: /venv/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
    "ModuleNotFoundError: No module named 'flash_attn_2_cuda'",
])
def test_loader_errors_and_oom_are_left_to_their_entries(exc):
    found = match(_through(FA2_CALL, AUTOGRAD + OPS, exc))
    assert found and not any(m.entry.id.startswith("ex91.") for m in found)


def test_the_fix_names_the_environment_and_a_measuring_command():
    m = match(traceback("sage", "triton", ROOTS["win"], EXCEPTIONS[6]))[0]
    assert m.entry.id == "ex91.raised-beneath-sage"
    assert m.fix.startswith("attn-doctor check --backend sage") and "pip show" in m.fix


# ---- rich tracebacks (Typer, Lightning, rich.traceback): boxed frames, the exception under the box ---------------------

def _rich(*frames: str, exc: str) -> str:
    out = "╭──────────────────── Traceback (most recent call last) ────────────────────╮\n"
    for path, line, fn, code in frames:
        out += f"│ {path}:{line} in {fn:<40} │\n│{'':76}│\n│ ❱ {line:>4} │   {code:<60} │\n│{'':76}│\n"
    return out + "╰" + "─" * 76 + "╯\n" + exc + "\n"


APP = ("/work/train.py", 210, "<module>", "out = attention(q, k, v)")


@pytest.mark.parametrize("frames,backend", [
    ([APP, ("/srv/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py", 91, "_flash_attn_forward",
            "out, lse, S, rng = flash_attn_gpu.fwd(")], "fa2"),
    ([APP, ("C:\\venv\\Lib\\site-packages\\sageattention\\core.py", 160, "sageattn", "return kernel(q, k, v)"),
      ("C:\\venv\\Lib\\site-packages\\torch\\_ops.py", 1158, "__call__", "return self._op(*args, **(kwargs or {}))")], "sage"),
    ([APP, ("/opt/conda/lib/python3.11/site-packages/xformers/ops/fmha/cutlass.py", 202, "apply", "out = cls.OPERATOR("),
      ("/opt/conda/lib/python3.11/site-packages/torch/_ops.py", 755, "__call__", "return self._op(*args)")], "xformers"),
])
def test_rich_traceback_ending_in_a_backend(frames, backend):
    assert first(_rich(*frames, exc="RuntimeError: a check the rules do not know")) == (f"ex91.raised-beneath-{backend}", backend)


def test_rich_traceback_passing_through_is_not_read_as_beneath():
    # the backend's frame, then the user's own code below it: raised there, not beneath the backend
    text = _rich(APP, ("/srv/venv/lib/python3.11/site-packages/xformers/benchmarks/utils.py", 210, "benchmark_main_helper",
                       "results = run(func, kwargs)"), ("/work/data.py", 12, "load_shapes", "with open(path) as f:"),
                 exc="ValueError: a shape file the rules do not know")
    assert not any(m.entry.id.startswith("ex91.") for m in match(text))


# ---- structure over a message's backend: a Triton kernel out of shared memory beneath another backend's call ----------

OOR = "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 114688, Hardware limit: 101376."


@pytest.mark.parametrize("backend", ["sage", "xformers", "fa2", "fa3"])
@pytest.mark.parametrize("root", ["venv", "win"])
def test_shared_memory_beneath_another_backend_is_not_flex(backend, root):
    # FlexAttention's entry (its fix: kernel_options) names the message; the frames say whose Triton kernel it was
    found = match(traceback(backend, "triton", ROOTS[root], OOR))
    assert (found[0].entry.id, found[0].backend) == ("triton.out-of-resources", backend)


def test_shared_memory_beneath_flex_stays_flex():
    assert first(traceback("flex", "hop", ROOTS["venv"], OOR)) == ("flex.shared-memory", "flex")
    assert first(OOR)[0] == "flex.shared-memory"  # no frames: as before


def test_no_code_line_reading_that_backtracks():
    # a code line read as `[ \t]+[^\n]*` splits its indent in as many ways as it has spaces; repeated over a dozen frames of a
    # traceback that does not end as the pattern wants, the regex engine tries them all (a 16-frame traceback took minutes)
    from attn_doctor import knowledge

    ours = [e for i, e in knowledge.entries().items() if i.startswith("ex91.")]
    assert len(ours) == 6
    for e in ours:
        for p in e.patterns:
            assert '[ \\t]+[^\\n]*\\n' not in p, e.id
