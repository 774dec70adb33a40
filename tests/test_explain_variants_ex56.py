"""Variants for the generic layer's readings of a report's BODY and tracebacks, session 9's helper ex56 (issue 23;
benchmarks/results/explain-generic-body-classes.md: the misses of benchmarks/explain_generic.py read text by text and
grouped into mechanisms). Every text was written by hand from the mechanism, NOT copied from a thread: other backends,
apps, paths, versions and wordings. Near misses beside each say what must NOT happen.

  labelled   triage.error-names-backend: the message a report LABELS as its error (ComfyUI's Error Report fields
             "Exception Type:" / "Exception Message:", ComfyUI's "Error occurred when executing NODE:" over the bare
             message, a writer's "error:" before an exception line, a label line "The error is:" over the message)
  rich       triage.through-backend: a rich traceback cut under its innermost marked line (❱) that calls a backend
  native     triage.through-backend: a native stack frame in a backend's compiled extension (Windows' module.pyd!symbol,
             torch's "frame #N: ... (module.so)")
  loader     import.failed: a loader error raised by the import the innermost frame runs
  without    prose.said: a sentence of the body that says the failure goes away without the backend
  refuses    prose.said: a sentence of the body that names a backend, a GPU and a refusal (prose.gpu's reading past the head)
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import entries

GENERIC = {e.id for e in entries().values() if e.generic or e.fallback or (e.frames and not e.patterns)}


def generic_first(text: str) -> tuple[str | None, str | None]:
    """(entry id, backend) of the first problem the generic layer alone reports (benchmarks/explain_generic.py)."""
    found = match(text, ids=GENERIC)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


def generic_all(text: str) -> list[tuple[str, str | None]]:
    return [(m.entry.id, m.backend) for m in match(text, ids=GENERIC)]


def everything(text: str) -> list[tuple[str, str | None]]:
    return [(m.entry.id, m.backend) for m in match(text)]


# a report's head: a title and four lines of setup, so that what follows is its body (knowledge/match.py HEAD_LINES)
HEAD = "Workflow stops at the sampler\n\nWindows 11, portable build.\nRTX 4070, driver 566.\nPython 3.12.\nDefault workflow.\n\n"
TB = ('  File "C:\\ComfyUI\\execution.py", line 323, in execute\n'
      '    output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all)\n')


# ---- labelled ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    # ComfyUI's Error Report: the type and the message as two fields (another node, another backend, another type)
    (HEAD + "# ComfyUI Error Report\n## Error Details\n- **Node ID:** 12\n- **Node Type:** WanVideoSampler\n"
     "- **Exception Type:** AssertionError\n- **Exception Message:** sageattn only takes fp16 or bf16 inputs here\n"
     "## Stack Trace\n```\n" + TB, "sage"),
    (HEAD + "## Error Details\n- **Node Type:** HunyuanVideoSampler\n- **Exception Type:** RuntimeError\n"
     "- **Exception Message:** flash_attn_varlen_func got max_seqlen_q larger than the padded length\n", "fa2"),
    # its ImportError field: no import.* entry reads the Report's fields (the message names the backend's package)
    (HEAD + "## Error Details\n- **Node Type:** LoadVisionModel\n- **Exception Type:** ImportError\n"
     "- **Exception Message:** This model needs xformers, which could not be loaded in this Python\n", "xformers"),
    # ComfyUI's older form: the header, a blank line, the bare message (no exception type), then unindented frames
    (HEAD + "Error occurred when executing SamplerCustomAdvanced:\n\nname 'sageattn' is not defined\n\n"
     'File "C:\\ComfyUI\\execution.py", line 151, in recursive_execute\n', "sage"),
    (HEAD + "Error occurred when executing VideoLoader:\n\nxformers' memory_efficient_attention got an unexpected bias\n",
     "xformers"),
    # a writer's "error:" before a pasted exception line
    (HEAD + "Right after the model loads:\n\nerror: RuntimeError: flash_attn_func got a head dim it cannot run on this card\n",
     "fa2"),
    (HEAD + "Error: TypeError: sageattn() got an unexpected keyword argument 'smooth_k'\n", "sage"),
    # a label line over the message, a fence between them
    (HEAD + "The actual error is:\n```\nQwenVLForConditionalGeneration does not support FlashAttention 3 yet.\n```\n",
     "fa3"),
    (HEAD + "The error message:\n\nxformers cannot run the cutlassF kernel with this head dim\n", "xformers"),
])
def test_labelled_message_names_the_backend(text, backend):
    assert generic_first(text) == ("triage.error-names-backend", backend)


@pytest.mark.parametrize("text", [
    # the labelled message names no backend (nor does the report): nothing to claim
    HEAD + "## Error Details\n- **Node Type:** KSampler\n- **Exception Type:** RuntimeError\n"
           "- **Exception Message:** mat1 and mat2 shapes cannot be multiplied (77x2048 and 768x320)\n",
    # an OOM in the Report's fields is the OOM entries', even where the workflow uses a backend
    HEAD + "## Error Details\n- **Node Type:** WanVideoSampler\n- **Exception Type:** torch.OutOfMemoryError\n"
           "- **Exception Message:** Allocation on device would exceed allowed memory. (out of memory) sageattn\n",
    # a label over a log's first line that says no failure (an error log whose first line is the backend's banner)
    HEAD + "The error log:\n\nxformers 0.0.28.post3 loaded, memory efficient attention enabled\n",
    # a label over a traceback: the traceback's own error line decides, not its first line
    HEAD + "The error is:\nTraceback (most recent call last):\n  File \"C:\\ComfyUI\\main.py\", line 9, in <module>\n"
           "    import comfy.options\nKeyError: 'sage_attention'\n",
    # "error:" before a loader error: import.*'s, not this catch-all
    HEAD + "error: ModuleNotFoundError: No module named 'flash_attn'\n",
    # a sentence that retells the error without a label: not read as an exception line
    HEAD + "I think the error is that I never enabled xformers in the launcher, it does not matter much.\n",
])
def test_labelled_near_misses(text):
    assert "triage.error-names-backend" not in [i for i, _ in generic_all(text)]


def test_labelled_report_does_not_displace_a_specific_cause():
    # the Report's message is one a specific entry knows: that entry stays first in normal mode
    text = (HEAD + "## Error Details\n- **Node Type:** WanVideoModelLoader\n- **Exception Type:** ValueError\n"
            "- **Exception Message:** Can't import SageAttention: No module named 'sageattention'\n")
    assert everything(text)[0][0] != "triage.error-names-backend"


# ---- rich ---------------------------------------------------------------------------------------------------------------

RICH_FRAME = ("│ /venv/lib/python3.11/site-packages/mymodel/blocks.py:140 in forward                                 │\n"
              "│                                                                                                  │\n"
              "│   139 │   │   q, k, v = self.to_qkv(x).chunk(3, dim=-1)                                          │\n")


@pytest.mark.parametrize("call,backend", [
    ("out = F.scaled_dot_product_attention(q, k, v, attn_mask=self.bias)", "sdpa"),
    ("out = flash_attn_varlen_func(q, k, v, cu_seqlens, cu_seqlens, max_s, max_s)", "fa2"),
    ("out = sageattn(q, k, v, tensor_layout=\"NHD\", is_causal=True)", "sage"),
    ("out = xops.memory_efficient_attention(q, k, v, attn_bias=bias)", "xformers"),
])
def test_rich_traceback_cut_under_a_backend_call(call, backend):
    text = ("mask dtype problem on the new model\n\n" + RICH_FRAME
            + f"│ ❱ 140 │   │   {call}   │\n"
            + "│   141 │   │   return self.proj(out)                                                              │\n")
    assert generic_first(text) == ("triage.through-backend", backend)


def test_rich_traceback_closed_after_the_call():
    text = ("mask dtype problem on the new model\n\n" + RICH_FRAME
            + "│ ❱ 140 │   │   out = F.scaled_dot_product_attention(q, k, v, attn_mask=self.bias)   │\n"
            + "│   141 │   │   return self.proj(out)                                                      │\n"
            + "╰──────────────────────────────────────────────────────────────────────────────────────────╯\n")
    assert generic_first(text) == ("triage.through-backend", "sdpa")


@pytest.mark.parametrize("text", [
    # the backend call is an outer frame: a deeper frame follows it (the failure is in that frame's code)
    "decode fails\n\n" + RICH_FRAME
    + "│ ❱ 140 │   │   out = F.scaled_dot_product_attention(q, k, v)                     │\n"
    + "│                                                                                  │\n"
    + "│ /venv/lib/python3.11/site-packages/mymodel/vae.py:51 in decode                   │\n"
    + "│ ❱  51 │   │   return self.conv(z)                                                │\n",
    # a rich frame whose marked line calls no backend
    "decode fails\n\n" + RICH_FRAME + "│ ❱ 140 │   │   out = self.attn(q, k, v)                          │\n",
])
def test_rich_traceback_near_misses(text):
    assert "triage.through-backend" not in [i for i, _ in generic_all(text)]


# ---- native -------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("frame,backend", [
    ("00007FF8AB001122 00007FF8AB000F00 _qattn_sm89.cp312-win_amd64.pyd!PyInit__qattn_sm89 [<unknown file> @ <unknown line number>]",
     "sage"),
    ("00007FFA1B2C3D4E00007FFA1B2C0000 flash_attn_2_cuda.cp311-win_amd64.pyd!c10::ivalue::Object::operator= [<unknown file> @ <unknown line number>]",
     "fa2"),
    ("frame #6: <unknown function> + 0x2b3c4d (0x7f1122334455 in /opt/venv/lib/python3.10/site-packages/flash_attn_3_cuda.cpython-310-x86_64-linux-gnu.so)",
     "fa3"),
])
def test_native_frame_in_a_backend_extension(frame, backend):
    text = ("CUDA error: no kernel image is available for execution on the device\n"
            "Exception raised from c10_cuda_check_implementation at C:\\actions-runner\\_work\\pytorch\\pytorch\\c10\\cuda\\CUDAException.cpp:43 (most recent call first):\n"
            "00007FF812345678 00007FF8123456AA c10.dll!c10::Error::Error [<unknown file> @ <unknown line number>]\n"
            + frame + "\n")
    assert generic_first(text) == ("triage.through-backend", backend)


def test_native_frames_of_torch_only_claim_nothing():
    text = ("CUDA error: no kernel image is available for execution on the device\n"
            "00007FF812345678 00007FF8123456AA c10.dll!c10::Error::Error [<unknown file> @ <unknown line number>]\n"
            "00007FF8AAAA0000 00007FF8AAAA0100 torch_cuda.dll!at::native::gemm [<unknown file> @ <unknown line number>]\n"
            "frame #3: <unknown function> + 0x1234 (0x7f00 in /venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)\n")
    assert "triage.through-backend" not in [i for i, _ in generic_all(text)]


# ---- loader -------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ('Traceback (most recent call last):\n  File "/srv/app/models/attn.py", line 3, in <module>\n    import sageattention\n'
     "ImportError: cannot enable executable stack as shared object requires: Invalid argument", "sage"),
    ('Traceback (most recent call last):\n  File "C:\\app\\nodes.py", line 12, in <module>\n'
     "    from flash_attn.flash_attn_interface import flash_attn_varlen_func\n"
     "OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed", "fa2"),
])
def test_loader_error_under_a_backend_import(text, backend):
    assert generic_first(text) == ("import.failed", backend)


def _loader_under_import():
    """import.failed's pattern for a loader error under the import the innermost frame runs (this helper's)."""
    e = entries()["import.failed"]
    (rx,) = [rx for p, rx in zip(e.patterns, e.compiled) if "in <module>" in p]
    return rx


@pytest.mark.parametrize("text", [
    # the backend itself is missing: not "installed but does not import" (import.failed's older pattern reads that line
    # by the name in it; this reading must not)
    'Traceback (most recent call last):\n  File "/srv/app/models/attn.py", line 3, in <module>\n    import xformers.ops\n'
    "ImportError: No module named 'xformers'",
    # the import is an outer frame; the loader error is raised deeper, in another library's import
    'Traceback (most recent call last):\n  File "/srv/app/run.py", line 3, in <module>\n    import sageattention\n'
    '  File "/srv/venv/lib/python3.11/site-packages/triton/__init__.py", line 1, in <module>\n    from ._C import libtriton\n'
    "ImportError: DLL load failed while importing libtriton",
    # a sentence quoting the import, then another library's loader error
    "I ran import sageattention and then\nImportError: libcudart.so.11.0: cannot open shared object file",
])
def test_loader_error_near_misses(text):
    assert _loader_under_import().search(text) is None


def _said(k: int):
    """prose.said's k-th pattern, compiled as the matcher compiles it (0: the first-person sentence, 1: this helper's, the
    failure gone without the backend or a GPU it refuses)."""
    return entries()["prose.said"].compiled[k]


def _body(sentence: str) -> str:
    return sentence + "\n"  # alone on its line (the matcher reads it past the head, as a line of the body)


# ---- without ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sentence,backend", [
    ("When I disable xformers in the launcher, everything works fine again.", "xformers"),
    ("Removing --use-sage-attention from the .bat is a workaround for now.", "sage"),
    ("Uninstalling flash-attn 2.8.3 fixed it, the model loads with eager attention.", "fa2"),
    ("The pipeline runs fine without flex attention, so I compile the rest of the model.", "flex"),
    ("We stopped using sageattn 2.2.0 and the problem went away.", "sage"),
    ("关掉 xformers 之后就正常了。", "xformers"),
])
def test_failure_gone_without_the_backend(sentence, backend):
    assert generic_first(HEAD + sentence + "\n") == ("prose.said", backend)


@pytest.mark.parametrize("sentence", [
    # the failure stays without it
    "I removed xformers and it still crashes at the VAE decode.",
    "Disabling sage attention didn't help, same black frames.",
    # it works, and the writer puts the problem elsewhere
    "It works fine without xformers, the problem is the new VAE node.",
    # the backend works; nothing was removed
    "xformers works fine here, the problem is the tiled decoder.",
    # a notice that the app goes on without it
    "No module 'xformers'. Proceeding without it.",
    # installing it is what helped (a missing backend is prose.import's reading, not this one)
    "Installing xformers 0.0.28 fixed it for me.",
    # advice that it need not go, because it works
    "You don't have to remove sageattention since it works on the 3090, only the VAE tiling is wrong.",
    "There is no need to turn off flash attention, as it runs fine on this card.",
])
def test_failure_gone_without_near_misses(sentence):
    # (prose.said's first-person reading may still take a sentence that says the backend fails: "I removed xformers and it
    # still crashes" is the writer's own failure word; this reading, the failure gone without it, must not)
    assert _said(1).search(_body(sentence)) is None


# ---- refuses ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sentence,backend", [
    ("The flash attention build we pinned does not support the MI250, so the second rank exits.", "fa2"),
    ("Our sageattention wheel is not supported on the Jetson Thor board yet, as far as the logs tell.", "sage"),
    ("The FlexAttention kernels do not support the T4 here, so the second rank exits.", "flex"),
    ("原因是这个版本的 xformers 不支持 RTX 5090 显卡。", "xformers"),
])
def test_body_sentence_gpu_refusal(sentence, backend):
    assert generic_first(HEAD + sentence + "\n") == ("prose.said", backend)


@pytest.mark.parametrize("sentence", [
    # an environment listing: a GPU and a backend, no refusal
    "GPU: RTX 2080 Ti, xformers 0.0.27.post2, torch 2.4.1.",
    # what the writer runs instead, and that it works
    "FlashAttention 3 does not support the 4090, so I use SDPA instead and it works fine.",
    # a denial
    "xformers on the 2080 does not support nothing? No, it has no problems at all on that card.",
])
def test_body_sentence_gpu_refusal_near_misses(sentence):
    assert _said(1).search(_body(sentence)) is None


def test_the_near_miss_readers_read_their_positives():
    # the patterns the near misses above are checked against do read this file's positives (else those checks prove nothing)
    assert _said(1).search(_body("When I disable xformers in the launcher, everything works fine again."))
    assert _said(1).search(_body("The FlexAttention kernels do not support the T4 here, so the second rank exits."))
    assert _loader_under_import().search('  File "/srv/app/models/attn.py", line 3, in <module>\n    import sageattention\n'
                                         "ImportError: initialization failed")
