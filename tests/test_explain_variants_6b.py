"""Variants for round 6b (issue 23, helper ex6b): the mechanisms fixtures/errors/round6b/ missed on main's
rules, each posted the ways users of trainers, UIs and model code post it.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real
thread: another GPU, backend, version, symbol or model, the error inside ComfyUI's / torchrun's / a
logger's wrapper, a title or one sentence, Chinese or Japanese prose around the English error. Each
positive case asserts the entry (one of a few acceptable ids where two say the same) and the backend of
the first problem that can be a failure's cause; the near misses beside each mechanism assert what must
NOT be claimed (the same words without the mechanism, another library's failure).

Mechanisms (knowledge file: entry):
  gpu-sentence   backends.toml: backend.unsupported-gpu  (a backend said not to work on a new GPU)
  blackwell      field3.toml: fa2.arch-check-before-2-7-3 (RTX PRO 6000 spellings)
  helper         frameworks.toml: transformers.helper-moved   (module '...modeling_x' has no attribute, titles)
  sage-missing   sage.toml: sage.not-installed           (sage2/sage3 modes, 'installed but failed to import')
  ret-value      attention.toml: attn.return-value        (a wrapper assumes a tuple / a single tensor)
  head-dim       attention.toml: attn.head-dim-unsupported   (requires head_dim <= N, Chinese 要求)
  cpu-torch      platform.toml: torch.cpu-build, sdpa.toml: sdpa.built-without-flash (paraphrased)
  banner         frameworks.toml: app.attention-libraries-absent (a sentence listing several as not installed)
  downgrade      xformers.toml: xformers.replaced-torch  (near miss: 降级到 PyTorch 原生 SDPA is a fallback)
  padding        field7b.toml: fa2.generation-right-padding (new)
  sliding        frameworks.toml: transformers.sdpa-sliding-window (new, a note)
  selection      frameworks.toml: app.backend-selection-ignored (new)
  triton         attribution.toml: flex.triton-broken taken over by the backend the text names
  optim-oom      attribution.toml: an OOM raised in the optimizer step is no attention backend's
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from explain_top import first_cause as _top, ids as _ids

ROOT_WIN = "D:\\ComfyUI_windows_portable\\ComfyUI"


def comfy(e: str) -> str:
    return (f"!!! Exception during processing !!! {e}\nTraceback (most recent call last):\n"
            f"  File \"{ROOT_WIN}\\execution.py\", line 327, in execute\n"
            f"    output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all)\n{e}\n")


def rank(e: str, r: int = 0) -> str:
    return "\n".join(f"[rank{r}]: {line}" for line in e.splitlines())


def logged(e: str) -> str:
    return f"2026-03-14 09:12:44,118 - WARNING - {e}"


UNSUPPORTED = {"backend.unsupported-gpu"}
CASES = [
    # gpu-sentence: a backend said not to work / not to support / to fail on a GPU newer than its kernels
    ("gpu-1", "flash-attn won't work on my RTX 5080, any fix?", UNSUPPORTED, "fa2"),
    ("gpu-2", "xformers doesn't support the RTX 5070 Ti yet (torch 2.7.1+cu128)", UNSUPPORTED, "xformers"),
    ("gpu-3", "SageAttention not working on Blackwell (RTX PRO 6000 Max-Q), generation stops at step 0", UNSUPPORTED, "sage"),
    ("gpu-4", "[Bug] vLLM tries to use FlashAttention 3 on sm120 (RTX 5090)", UNSUPPORTED, "fa3"),
    ("gpu-5", "xformers is not compatible with the 5060 Ti / RTX 50 series, use --opt-sdp-attention", UNSUPPORTED, "xformers"),
    ("gpu-6", "When I run the sampler with sageattn it gives an error about sm_120 and stops", UNSUPPORTED | {"sage.arch-kernel"}, "sage"),
    ("gpu-7", "RTX 5090 显卡架构过新，flash-attn 无法找到对应的预编译 wheel，训练启动失败", UNSUPPORTED, "fa2"),
    ("gpu-8", "RTX 5080 では xformers が動きません。sdpa に切り替えると動きます", UNSUPPORTED, "xformers"),
    ("gpu-9", "i have problem with flash attention 2, it doesnt work with the B200 on runpod", UNSUPPORTED, "fa2"),
    # blackwell: the RTX PRO 6000 as users spell it, before FA2's old arch check
    ("bw-1", "pro6000: RuntimeError: FlashAttention only supports Ampere GPUs or newer.", {"fa2.arch-check-before-2-7-3"}, "fa2"),
    ("bw-2", "On an RTX PRO 6000 Max-Q I get\n[rank1]: RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
     {"fa2.arch-check-before-2-7-3"}, "fa2"),
    ("bw-3", rank("RuntimeError: FlashAttention only supports Ampere GPUs or newer.\nGPU: NVIDIA RTX PRO 6000 Blackwell Server Edition", 2),
     {"fa2.arch-check-before-2-7-3"}, "fa2"),
    # helper: a trainer's patch reaches for a FlashAttention helper in a model module that no longer has it
    ("helper-1", "AttributeError: module 'transformers.models.qwen2.modeling_qwen2' has no attribute '_flash_attention_forward'",
     {"transformers.helper-moved"}, "fa2"),
    ("helper-2", rank("  File \"/opt/swift/swift/llm/model/patcher.py\", line 212, in _patch_packing\n"
                      "    modeling_module._get_unpad_data = _get_unpad_data\n"
                      "AttributeError: module 'transformers.models.llama.modeling_llama' has no attribute '_get_unpad_data'"),
     {"transformers.helper-moved"}, "fa2"),
    ("helper-3", "_upad_input fails to patch into Qwen2-VL when packing is on (transformers 4.53)", {"transformers.helper-moved"}, "fa2"),
    ("helper-4", "开启 packing 后报错：_flash_attention_forward 在 qwen2_vl 里找不到 (module has no attribute)", {"transformers.helper-moved"}, "fa2"),
    # sage-missing: the app's own words for a missing SageAttention (sage2 / sage3 modes), and the user's
    ("sage-1", "You have selected attention mode 'sage2'. However it is not installed or supported on your system.",
     {"sage.not-installed"}, "sage"),
    ("sage-2", logged("Attention mode sage3 is not installed, switching to sdpa"), {"sage.not-installed"}, "sage"),
    ("sage-3", "I installed sageattention 2.2 with the wheel but musubi still prints Failed to import sageattention",
     {"sage.not-installed"}, "sage"),
    ("sage-4", "已经 installed sageattention 了，但是 still says Failed to import sageattention", {"sage.not-installed"}, "sage"),
    # ret-value: a wrapper written for one return shape meets the other, said in prose
    ("ret-1", "Flash Attention 3 varlen wrapper assumes output is a tuple", {"attn.return-value"}, "fa3"),
    ("ret-2", "flash_attn_interface.flash_attn_func returns a single tensor in the new FA3 build, but wan's attention.py indexes [0]",
     {"attn.return-value"}, "fa3"),
    ("ret-3", "flash_attn_varlen_func returns a tuple (out, lse) in FA3 beta, the pipeline expects a tensor", {"attn.return-value"}, "fa3"),
    # head-dim: a requirement on head_dim stated as a bound, in English or Chinese
    ("hd-1", "FA3 requires head_dim <= 256, but the VAE's attention has head_dim 512", {"attn.head-dim-unsupported"}, "fa3"),
    ("hd-2", "flash-attn 要求 head_dim <= 256，我们的 decoder 是 320", {"attn.head-dim-unsupported"}, "fa2"),
    ("hd-3", "sageattention 只支持 head_dim <= 128, SD1.5 的 160 用不了", {"attn.head-dim-unsupported", "sage.head-dim"}, "sage"),
    # cpu-torch: the messages paraphrased in a sentence
    ("cpu-1", "after installing flash-attn, comfy won't start and says torch not compiled with cuda", {"torch.cpu-build"}, None),
    ("cpu-2", "torch is not compiled with CUDA after pip install xformers", {"torch.cpu-build", "xformers.replaced-torch"}, None),
    ("cpu-3", "it says torch not compiled with flash attention every time I run the sampler", {"sdpa.built-without-flash"}, "sdpa"),
    # banner: the app's start-up lines, retold in a sentence that lists several libraries
    ("banner-1", "both Flash Attention and Sage Attention along with xformers give the message that they are not installed",
     {"app.attention-libraries-absent"}, None),
    ("banner-2", "FramePack says xformers, flash attn and sage attn are not installed", {"app.attention-libraries-absent"}, None),
    ("banner-3", "Xformers and SageAttention show as not installed in the console when it starts", {"app.attention-libraries-absent"}, None),
    # padding: transformers' FlashAttention-2 path refuses batched generation with right padding
    ("pad-1", "ValueError: You are attempting to perform batched generation with padding_side='right' this may lead to "
              "unexpected behaviour for Flash Attention version of Mistral. Make sure to  call `tokenizer.padding_side  = 'left'` "
              "before tokenizing the input.", {"fa2.generation-right-padding"}, "fa2"),
    ("pad-2", rank("  File \"/venv/lib/python3.11/site-packages/transformers/models/starcoder2/modeling_starcoder2.py\", line 1021, in _update_causal_mask\n"
                   "    raise ValueError(\nValueError: You are attempting to perform batched generation with padding_side='right' "
                   "this may lead to unexpected behaviour for Flash Attention version of Starcoder2."), {"fa2.generation-right-padding"}, "fa2"),
    ("pad-3", "GRPO eval: batched generation with padding_side='right' error with flash_attention_2 although I set left padding",
     {"fa2.generation-right-padding"}, "fa2"),
    # selection: the backend the user selected is not the one that runs
    ("sel-1", "--use-sage-attention ignored when xformers is installed", {"app.backend-selection-ignored"}, "sage"),
    ("sel-2", "Runtime error in flash_attn even though sdpa is selected in the loader", {"app.backend-selection-ignored"}, "fa2"),
    ("sel-3", "SageAttention crash even when attention_mode is set to sdpa", {"app.backend-selection-ignored"}, "sage"),
    # triton: a broken Triton under a backend that runs on Triton is that backend's
    ("triton-1", "ComfyUI with flash-attention (ROCm triton backend): ImportError: cannot import name 'amd' from 'triton._C.libtriton'",
     {"flex.triton-broken"}, "fa2"),
    ("triton-2", "sageattention fails: ImportError: cannot import name 'AttrsDescriptor' from 'triton.compiler.compiler'",
     {"flex.triton-broken"}, "sage"),
]


@pytest.mark.parametrize("name,text,ids,backend", CASES, ids=[c[0] for c in CASES])
def test_variant(name, text, ids, backend):
    eid, b = _top(text)
    assert eid in ids and b == backend, (eid, b)


NOTES = [
    # sliding: transformers' sliding-window warning for sdpa, a note (no failure's cause)
    ("slide-1", "Sliding Window Attention is enabled but not implemented for `sdpa`; unexpected results may be encountered."),
    ("slide-2", logged("Sliding Window Attention is enabled but not implemented for `eager`; unexpected results may be encountered.")),
    ("slide-3", "训练失败，日志里有 Sliding Window Attention is enabled but not implemented for sdpa 这一行"),
]


@pytest.mark.parametrize("name,text", NOTES, ids=[n[0] for n in NOTES])
def test_sliding_window_is_a_note(name, text):
    found = match(text)
    assert [m.entry.id for m in found] == ["transformers.sdpa-sliding-window"]
    assert not found[0].entry.can_cause


NEAR_MISSES = [
    # gpu-sentence: a success, no backend named, an older GPU, a question about speed
    ("gpu-ok", "flash-attn 2.8.3 works fine on my RTX 5090 with torch 2.8", "backend.unsupported-gpu"),
    ("gpu-nobackend", "ComfyUI doesn't work on my RTX 5090 after the update, blank page", "backend.unsupported-gpu"),
    ("gpu-old", "xformers doesn't support this attn_bias on the RTX 4090", "backend.unsupported-gpu"),
    ("gpu-speed", "Is sageattention faster than flash attention on the RTX 5090?", "backend.unsupported-gpu"),
    # helper: another module's missing attribute
    ("helper-other", "AttributeError: module 'transformers.models.qwen2.modeling_qwen2' has no attribute 'Qwen2ForCausalLM3'",
     "transformers.helper-moved"),
    # sage-missing: musubi's own start-up lines above another failure stay unclaimed
    ("sage-log", "Trying to import sageattention\nFailed to import sageattention\nINFO:__main__:Load dataset config from data/test.toml",
     "sage.not-installed"),
    # ret-value: a tuple spoken of without a FlashAttention call
    ("ret-other", "the dataloader returns a tuple, the collate function expects a dict", "attn.return-value"),
    # banner: one library named (the user's own sentence is sage.not-installed)
    ("banner-one", "sage attention not installed even though pip says it is", "app.attention-libraries-absent"),
    # downgrade: 'graceful fallback to PyTorch's native SDPA' is no torch replaced
    ("downgrade-1", "目前的源码强制使用 `xformers` 或 `flash_attn`，未提供优雅降级到 PyTorch 原生SDPA的选项。", "xformers.replaced-torch"),
    ("downgrade-2", "希望 xformers 不可用时自动降级到 PyTorch 自带的 SDPA", "xformers.replaced-torch"),
    # selection: a backend that works where another is selected is no failure
    ("sel-ok", "flash_attn works fine even though sdpa is selected", "app.backend-selection-ignored"),
]


@pytest.mark.parametrize("name,text,absent", NEAR_MISSES, ids=[n[0] for n in NEAR_MISSES])
def test_near_miss(name, text, absent):
    assert absent not in _ids(text)


def test_replaced_torch_still_reads_chinese_downgrade():
    assert _top("装xformers的时候把我的torch降级了，变成了cpu版本")[0] == "xformers.replaced-torch"


OPTIM_OOM = [
    # optim-oom: the allocation that failed was the optimizer's (AdamW's foreach state, bitsandbytes' 8-bit
    # state), with flash-attn named on the command line or in the config: no attention backend's failure
    ("adamw", "    --use_flash_attn true \\\n    --learning_rate 1e-5 \\\n```\nerror:\n```\n"
              "  File \"/opt/conda/lib/python3.11/site-packages/torch/optim/adamw.py\", line 512, in _multi_tensor_adamw\n"
              "    exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)\n"
              "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB. GPU 0 has a total capacity of 79.19 GiB"),
    ("bnb", "attn_implementation: flash_attention_2\nTraceback (most recent call last):\n"
            "  File \"/workspace/train.py\", line 88, in <module>\n    optimizer.step()\n"
            "  File \"/venv/lib/python3.10/site-packages/bitsandbytes/optim/optimizer.py\", line 287, in step\n"
            "    self.init_state(group, p, gindex, pindex)\n"
            "  File \"/venv/lib/python3.10/site-packages/bitsandbytes/optim/optimizer.py\", line 474, in init_state\n"
            "    state[\"state1\"] = self.get_state_buffer(p, dtype=torch.uint8)\n"
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 23.65 GiB total capacity)"),
    ("adam-rank", rank("  File \"/usr/local/lib/python3.10/dist-packages/torch/optim/adam.py\", line 541, in _multi_tensor_adam\n"
                       "    torch._foreach_add_(device_exp_avg_sqs, eps)\n"
                       "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.", 3)),
]


@pytest.mark.parametrize("name,text", OPTIM_OOM, ids=[o[0] for o in OPTIM_OOM])
def test_optimizer_oom_is_not_attention(name, text):
    assert _ids(text) == []


def test_oom_inside_an_attention_call_is_still_claimed():
    text = ("Traceback (most recent call last):\n"
            "  File \"/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py\", line 90, in _flash_attn_varlen_forward\n"
            "    out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.varlen_fwd(\n"
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB.")
    assert _ids(text)


def test_bare_triton_break_stays_flex():
    # session 7 (ex43): named by no backend, a Triton that does not match torch is Triton's and torch's install, as this
    # round's deepbeepmeep/Wan2GP#348 (labelled none) says: the entry, with no backend ([own_if_named] in attribution.toml)
    assert _top("ImportError: cannot import name 'AttrsDescriptor' from 'triton.compiler.compiler'") == ("flex.triton-broken", None)


WRONG_OUTPUT = [
    # wrong-output: a backend runs but its images come out black / noisy (attention.toml: attn.wrong-output)
    ("wo-1", "SageAttention on the 4090 gives black images with Flux fp8, sdpa is fine", "sage"),
    ("wo-2", "xformers produces noisy output on Wan 2.1 i2v since the update", "xformers"),
    ("wo-3", "黑图：black images when using sageattn_qk_int8_pv_fp16_triton in the KJ patch node", "sage"),
    ("wo-4", "[Bug] sage attention fp8 (sm90) kernel gives confetti output on the H200 with Qwen-Image", "sage"),
]


@pytest.mark.parametrize("name,text,backend", WRONG_OUTPUT, ids=[w[0] for w in WRONG_OUTPUT])
def test_wrong_output(name, text, backend):
    assert _top(text) == ("attn.wrong-output", backend)


@pytest.mark.parametrize("text", [
    "black images from the VAE decode (no attention library changed)",
    "sageattention made generation 30% faster with no quality loss",
    "The output image is black and white by design (grayscale LoRA)",
])
def test_wrong_output_near_misses(text):
    assert "attn.wrong-output" not in _ids(text)


@pytest.mark.parametrize("text,backend", [
    ("Runtime Error in flashattn even if sage_attn or sdpa is selected", "fa2"),
    ("i have problem with flash attn , it wont work with the RTX PRO 6000", "fa2"),
])
def test_typed_flash_names_attribute_to_fa2(text, backend):
    assert _top(text)[1] == backend
