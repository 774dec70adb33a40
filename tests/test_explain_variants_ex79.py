"""Variants for helper ex79 (session 11): whole pasted logs, the root cause ranked first (issue 23; fixtures/errors/round79).

Every case was written by hand (2026-11-29): other apps, wrappers, versions, paths and orders than the fixtures. Each pairs a
root cause with the symptom that reports it, in the order a user pastes them (the error first, the diagnostic that says why
under it) and in the order a program prints them, with other start-up noise around.

Mechanism (knowledge field: rule):
  explained_by  knowledge/__init__.py Entry.explained_by + match._rank: a message that reports another entry's failure ranks
                after that entry wherever each stands, as a `symptom` does. xformers.toml: "No operator found" (no-operator)
                is explained by the extension that did not load and why (built-for-other-torch, not-compiled, torch-is-cpu,
                gpu-too-old); "wasn't build with CUDA support" (not-compiled) by why it did not load (built-for-other-torch,
                torch-is-cpu). Alone, each is still reported first; input reasons (dtype, head dim) stay no-operator's.
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb

NO_OP_FA = (
    "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
    "     query       : shape=(1, 4096, 10, 64) (torch.float16)\n"
    "     key         : shape=(1, 4096, 10, 64) (torch.float16)\n"
    "     value       : shape=(1, 4096, 10, 64) (torch.float16)\n"
    "     attn_bias   : <class 'NoneType'>\n"
    "     p           : 0.0\n"
    "`fa2F@v2.6.3-24906f1` is not supported because:\n"
    "    xFormers wasn't build with CUDA support\n"
    "`cutlassF-pt` is not supported because:\n"
    "    xFormers wasn't build with CUDA support\n"
)
NO_OP_BARE = (
    "NotImplementedError: No operator found for `memory_efficient_attention_backward` with inputs:\n"
    "     query       : shape=(2, 77, 8, 40) (torch.float16)\n"
    "`cutlassB` is not supported because:\n"
    "    operator wasn't built - see `python -m xformers.info` for more info\n"
)
OTHER_TORCH = (
    "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
    "    PyTorch 2.4.0+cu121 with CUDA 1201 (you have 2.5.1+cu124)\n"
    "    Python  3.10.11 (you have 3.10.11)\n"
    "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n"
    "  Memory-efficient attention, SwiGLU, sparse and more won't be available.\n"
    "  Set XFORMERS_MORE_DETAILS=1 for more details\n"
)
OTHER_TORCH_B = (
    "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
    "    PyTorch 2.7.0+cu128 with CUDA 1208 (you have 2.8.0+cu129)\n"
    "    Python  3.12.10 (you have 3.12.10)\n"
    "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n"
)
COMFY_START = (
    "Total VRAM 24564 MB, total RAM 65266 MB\n"
    "pytorch version: 2.5.1+cu124\n"
    "Set vram state to: NORMAL_VRAM\n"
    "Device: cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync\n"
    "Using xformers attention\n"
    "[Prompt Server] web root: /opt/ComfyUI/web\n"
)


# explained_by: the paste's error first, the diagnostic that says why under it; the cause must rank first
@pytest.mark.parametrize("text", [
    NO_OP_FA + "\n(venv) PS D:\\sd> python -m xformers.info\n" + OTHER_TORCH + "xFormers 0.0.28.post1\n"
    "memory_efficient_attention.cutlassF-pt:           unavailable\n",
    "!!! Exception during processing !!! No operator found for `memory_efficient_attention_forward` with inputs:\n"
    + NO_OP_FA.split("\n", 1)[1] + "\nthen I ran xformers.info:\n" + OTHER_TORCH_B,
    COMFY_START + tb(("/opt/ComfyUI/execution.py", 323, "execute", "output_data = get_output_data(obj, input_data_all)"),
                     ("/opt/venv/lib/python3.11/site-packages/xformers/ops/fmha/dispatch.py", 63, "_run_priority_list",
                      "raise NotImplementedError(msg)"))
    + "\n" + NO_OP_FA + "\n# python -m xformers.info\n" + OTHER_TORCH,
    NO_OP_BARE + "\n" + OTHER_TORCH_B,
])
def test_extension_load_failure_ranks_before_no_operator(text):
    found = _ids(text)
    assert _top(text) == ("xformers.built-for-other-torch", "xformers"), found
    assert "xformers.no-operator" in found and found.index("xformers.built-for-other-torch") < found.index(
        "xformers.no-operator"), found


# the same pair in the order a program prints them (the warning at import, the error at the first call): unchanged
@pytest.mark.parametrize("text", [
    OTHER_TORCH + COMFY_START + "got prompt\n" + NO_OP_FA,
    "Launching Web UI with arguments: --xformers\n" + OTHER_TORCH_B + "Loading weights [6ce0161689] from model.safetensors\n"
    + NO_OP_BARE,
])
def test_printed_order_keeps_the_cause_first(text):
    assert _top(text) == ("xformers.built-for-other-torch", "xformers"), _ids(text)


# not-compiled is itself explained by why the extension did not load
def test_not_compiled_follows_the_torch_mismatch():
    text = ("`flshattF@0.0.0` is not supported because:\n    xFormers wasn't build with CUDA support\n"
            "`cutlassF` is not supported because:\n    xFormers wasn't build with CUDA support\n\n" + OTHER_TORCH_B)
    found = _ids(text)
    assert found[0] == "xformers.built-for-other-torch", found
    assert "xformers.not-compiled" not in found or found.index("xformers.not-compiled") > 0, found


# an input reason listed before the missing CUDA part is no cause: no operator could run whatever the inputs
@pytest.mark.parametrize("text", [
    "No operator found for `memory_efficient_attention_forward` with inputs:\n"
    "query : shape=(1, 257, 16, 80) (torch.float16)\n"
    "`smallkF` is not supported because:\n"
    "max(query.shape[-1] != value.shape[-1]) > 32\n"
    "dtype=torch.float16 (supported: {torch.float32})\n"
    "unsupported embed per head: 80\n"
    "`cutlassF` is not supported because:\n"
    "xFormers wasn't build with CUDA support\n"
    "operator wasn't built - see `python -m xformers.info` for more info\n",
    "Error occurred when executing ApplyPulid:\n\nNo operator found for `memory_efficient_attention_forward` with inputs:\n"
    "     query       : shape=(1, 577, 16, 64) (torch.float32)\n"
    "`decoderF` is not supported because:\n"
    "    attn_bias type is <class 'NoneType'>\n"
    "    dtype=torch.float32 (supported: {torch.float16, torch.bfloat16})\n"
    "`flshattF@0.0.0` is not supported because:\n"
    "    xFormers wasn't build with CUDA support\n",
])
def test_input_reasons_follow_the_missing_cuda_part(text):
    found = _ids(text)
    assert found[0] == "xformers.not-compiled", found
    if "xformers.unsupported-inputs" in found:
        assert found.index("xformers.unsupported-inputs") > found.index("xformers.not-compiled"), found


# with no extension failure in the paste, the reasons' own entry stands (each still reported, first where alone)
@pytest.mark.parametrize("text, expected", [
    (NO_OP_FA, "xformers.not-compiled"),  # every reason says the CUDA part is missing: that is the cause shown
    (COMFY_START + "got prompt\n" + NO_OP_FA, "xformers.not-compiled"),
    ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
     "     query       : shape=(1, 1024, 16, 160) (torch.float32)\n"
     "`fa2F@v2.5.7-pt` is not supported because:\n"
     "    dtype=torch.float32 (supported: {torch.float16, torch.bfloat16})\n"
     "    query.shape[-1] % 8 != 0\n", None),
])
def test_alone_each_still_first(text, expected):
    found = _ids(text)
    assert found, text
    if expected is None:  # an input reason: the error itself (or its input reasons' entry) first, never a load failure
        assert found[0] in ("xformers.no-operator", "xformers.unsupported-inputs"), found
        assert "xformers.built-for-other-torch" not in found and "xformers.not-compiled" not in found, found
    else:
        assert found[0] == expected, found
        assert "xformers.no-operator" in found, found


# the order the other causes and symptoms already had stays: a build's compiler error before the installer's summary,
# an import error before transformers' "toggled on" wrapper, each rank's traceback before torchrun's ChildFailedError
@pytest.mark.parametrize("text, cause", [
    ("  × Failed to build `flash-attn==2.8.3`\n  ├─▶ The build backend returned an error\n"
     "      [12/73] /usr/local/cuda-12.8/bin/nvcc -c csrc/flash_attn/src/flash_bwd_hdim64_fp16_sm80.cu\n"
     "      FAILED: build/temp.linux-x86_64-cpython-312/csrc/flash_attn/src/flash_bwd_hdim64_fp16_sm80.o\n"
     "      /usr/include/c++/14/bits/std_function.h:435:145: error: parameter packs not expanded with '...':\n"
     "      ninja: build stopped: subcommand failed.\n"
     "      RuntimeError: Error compiling objects for extension\n", "build.compiler-error"),
    (tb(("/srv/llm/train.py", 88, "main", "model = AutoModelForCausalLM.from_pretrained(path, attn_implementation='flash_attention_2')"),
        ("/srv/llm/.venv/lib/python3.12/site-packages/flash_attn/flash_attn_interface.py", 15, "<module>",
         "import flash_attn_2_cuda as flash_attn_gpu"),
        error="ImportError: /srv/llm/.venv/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
              "undefined symbol: _ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_ib")
     + "\nImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: "
       "the package flash_attn seems to be not installed.\n", "import.undefined-symbol"),
    ("[rank3]: Traceback (most recent call last):\n[rank3]:   File \"/job/pretrain.py\", line 7, in <module>\n"
     "[rank3]:     import flash_attn\n"
     "[rank3]: ImportError: /opt/conda/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
     "undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs\n"
     "E0301 09:12:44.120000 501 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 3 "
     "(pid: 504) of binary: /opt/conda/bin/python\n"
     "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n", "import.undefined-symbol"),
])
def test_other_causes_keep_their_place(text, cause):
    assert _ids(text)[0] == cause, _ids(text)


def test_explained_by_names_known_entries():
    """Every `explained_by` id is an entry (the loader refuses an unknown one); the field is no-op for entries without it."""
    from attn_doctor.knowledge import entries

    known = entries()
    users = [e for e in known.values() if e.explained_by]
    assert {e.id for e in users} >= {"xformers.no-operator", "xformers.not-compiled"}
    assert all(i in known and i != e.id for e in users for i in e.explained_by)
