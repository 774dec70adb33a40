"""Variants for helper ex42u (session 42): unrelated logs explain claimed (benchmarks/results/ex42u-unrelated-claims.md).

Every case was written by hand (2026-12-03): other models, GPUs, programs and sizes than the training rounds' unrelated logs.
The near misses are logs of the shapes those rounds hold whose failure is no attention backend's: explain must claim nothing
in them (None) or not the entry named. The positives are the same failures where attention is what ran out of memory or the
program is a PyTorch one: they must stay claimed, with the entry (and backend) named.

Mechanisms (knowledge file: rule; the unrelated logs it came from):
  oom      attribution.toml [needs_backend] gains train.oom: a GiB-sized out-of-memory is any model's (a VAE's decode, a video
           model at a long clip, a lip-sync run) unless an attention library is named near it (FlexiAct#11, FramePack#602,
           VideoLLaMA3#38, CompVis/stable-diffusion#712, ComfyUI-LatentSyncWrapper#53); [needs_backend] self_evident keeps the
           one allocation of a TiB or more claimed without a name (a materialised sequence x sequence score matrix:
           huggingface/diffusers#4166, round 103g's sdpa-math-oom)
  recomp   attribution.toml [needs_backend] gains compile.recompile-limit: torch.compile's recompile limit is any compiled
           function's (a video transformer's forward, an optimizer step: huggingface/diffusers#10932, microsoft/dion#23);
           FlexAttention's only where an attention library is named near it
  ggml     attribution.toml [[library]] "foreign": GPUStack's llama-box (a llama.cpp server) by name: its "no kernel image"
           is its ggml build's, not torch's (gpustack/gpustack#1382); llama.cpp's own llama-server is read as "other" (an
           attention library outside the seven) and stays claimed (STILL_WRONG)
  (already unclaimed, kept so: an NCCL watchdog timeout beside a flash_attention_2 line, a pip freeze listing flash-attn and
  xformers, an issue form's environment block naming flash-attn over a tokenizer's error)
"""

from __future__ import annotations

from each_case import each
from explain_top import first, ids, tb

OOM = "train.oom"
ARCH = "gpu.arch-not-in-torch"

_VAE = tb(("/srv/app/generate.py", 141, "run", "frames = pipe.vae.decode(latents / 0.18215).sample"),
          ("/opt/venv/lib/python3.10/site-packages/diffusers/models/autoencoders/autoencoder_kl_cogvideox.py", 1187, "decode",
           "decoded = self._decode(z).sample"),
          error="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 12.66 GiB. GPU 0 has a total capacity of 23.64 "
                "GiB of which 4.02 GiB is free. Of the allocated memory 17.80 GiB is allocated by PyTorch")
_SDPA = tb(("/home/u/proj/train.py", 77, "forward", "out = model(batch)"),
           ("/home/u/proj/model/blocks.py", 58, "forward",
            "h = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)"),
           error="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 32.00 GiB. GPU 0 has a total capacity of 79.15 "
                 "GiB of which 21.40 GiB is free.")

NEAR_MISSES = [
    # oom: no attention library anywhere
    ("oom-vae-decode", _VAE, None),
    ("oom-long-clip", "Generating 241 frames at 1280x720 on my 4090\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
     "allocate 46.35 GiB (GPU 0; 23.99 GiB total capacity; 9.12 GiB already allocated; 12.70 GiB free)", None),
    ("oom-hip-upscale", "!!! Exception during processing !!! HIP out of memory. Tried to allocate 6.75 GiB. GPU 0 has a total "
     "capacity of 15.98 GiB of which 1.02 GiB is free.\n(the 4x upscaler node on a 7800 XT)", None),
    ("oom-xpu-tts", "Loading the TTS checkpoint on the Arc B580...\nRuntimeError: XPU out of memory. Tried to allocate 3.50 GiB "
     "(GPU 0; 11.60 GiB total capacity)", None),
    ("oom-infer-zh", "推理的时候显存不够\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 57.20 GiB. GPU 0 has a "
     "total capacity of 47.50 GiB", None),
    # recomp: a compiled function that is no attention call
    ("recomp-forward", "W1203 09:14:02.118000 5521 torch/_dynamo/convert_frame.py:1016] [2/8] torch._dynamo hit config.recompile_limit "
     "(8)\nW1203 09:14:02.118000 5521 torch/_dynamo/convert_frame.py:1016] [2/8]    function: 'forward' "
     "(/srv/wan/modules/vae.py:412)\nW1203 09:14:02.118000 5521 torch/_dynamo/convert_frame.py:1016] [2/8]    last reason: "
     "2/0: tensor 'x' size mismatch at index 2. expected 21, actual 41", None),
    ("recomp-optimizer", "Muon's step keeps recompiling: cache_size_limit reached after 8 parameter shapes", None),
    # ggml: a llama.cpp family binary's own CUDA build
    ("ggml-llama-server", "llama-server -m qwen2.5-14b-q4_k_m.gguf -ngl 99 on an RTX 5070\nCUDA error: no kernel image is "
     "available for execution on the device", None),
    ("ggml-llama-box", "llama-box fails on the new RTX PRO 6000: CUDA error: no kernel image is available for execution on the "
     "device", None),
    # already unclaimed: kept so
    ("nccl-timeout", "[rank1]:[E1203 04:10:02.511 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation "
     "timeout: WorkNCCL(SeqNum=912, OpType=ALLGATHER, Timeout(ms)=1800000) ran for 1800041 milliseconds before timing out.\n"
     "torch.distributed.DistBackendError: [Rank 1] Watchdog caught collective operation timeout\n"
     "(the model is loaded with attn_implementation=\"flash_attention_2\")", None),
    ("pip-freeze", "Outputs turn to gibberish after a few hundred tokens.\n\npip freeze:\naccelerate==1.1.0\nflash-attn==2.6.3\n"
     "numpy==2.1.2\ntorch==2.4.1+cu121\ntransformers==4.46.0\nxformers==0.0.28", None),
    ("issue-form-env", "### System Info\n\n- Platform: Linux-6.8.0-x86_64-with-glibc2.39\n- PyTorch version (GPU?): 2.6.0+cu126 "
     "(True)\n- GPU: NVIDIA GeForce RTX 5090\n- flash-attn version: 2.7.4.post1\n\n### Reproduction\n\nThe chat template drops "
     "the system prompt.\nKeyError: 'system'", None),
]

POSITIVES = [
    # oom: attention named near it, or an allocation only a score matrix reaches
    ("oom-sdpa-frame", _SDPA, (OOM, "sdpa")),
    ("oom-xformers-line", "xformers memory_efficient_attention at 16k tokens: CUDA out of memory. Tried to allocate 18.00 GiB",
     (OOM, "xformers")),
    ("oom-tib-alloc", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4096.00 GiB. GPU 0 has a total capacity of "
     "93.10 GiB of which 90.22 GiB is free.", (OOM, None)),
    ("oom-eager-block", "With the eager attention path the 32k-token prompt fails at once:\n"
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB. GPU 3 has a total capacity of 31.74 GiB",
     (OOM, None)),
    ("oom-train-step", tb(("/work/sft/run.py", 233, "main", "loss.backward()"),
                          ("/opt/conda/lib/python3.11/site-packages/torch/_tensor.py", 626, "backward", "torch.autograd.backward("),
                          error="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB. GPU 0 has a total "
                                "capacity of 39.39 GiB of which 812.00 MiB is free."), (OOM, None)),
    # recomp: the limit hit for the attention function
    ("recomp-flex", "W1203 09:14:02.118000 5521 torch/_dynamo/convert_frame.py:1016] [0/8] torch._dynamo hit config.recompile_limit "
     "(8)\nW1203 09:14:02.118000 5521 torch/_dynamo/convert_frame.py:1016] [0/8]    function: 'flex_attention' "
     "(/opt/venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py:1302)", ("compile.recompile-limit", "flex")),
    # ggml: a PyTorch program's "no kernel image" stays torch's build
    ("arch-comfy", "ComfyUI on the RTX 5080\nRuntimeError: CUDA error: no kernel image is available for execution on the device\n"
     "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.", (ARCH, None)),
]


def _near_miss(text, must_not):
    found = ids(text)
    assert (not found) if must_not is None else must_not not in found, found


def _positive(text, want):
    got = first(text)
    assert got == want, (got, ids(text))


STILL_WRONG = {"ggml-llama-server": "llama-server names the 'other' library (llama.cpp's own attention), which gpu.arch-not-in-torch "
                                      "does not yield to"}


def test_ex42u_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss, STILL_WRONG)


def test_ex42u_positives():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


# the lead, session 42 (after nu42's row 7): an out-of-memory pasted alone (the error line, perhaps torch's allocator hint
# under it) is the user's own job asking for its fix: attribution.toml [needs_backend] bare_paste keeps train.oom claimed
# there; the same line inside a log that shows what ran (_VAE above: a VAE's decode; NEAR_MISSES' one line of what the job
# was doing over the error: a long clip, an upscaler node, a TTS load, an inference) stays unclaimed
BARE = [
    ("bare-line", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.52 GiB. GPU 0 has a total capacity of 23.65 "
                  "GiB of which 1.20 GiB is free. Of the allocated memory 20.10 GiB is allocated by PyTorch"),
    ("bare-hint", "\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB (GPU 0; 39.39 GiB total "
                  "capacity; 37.02 GiB already allocated)\nIf reserved but unallocated memory is large try setting "
                  "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.\n"),
]


def _bare(text):
    assert first(text)[0] == OOM, ids(text)


def test_an_oom_pasted_alone_is_read():
    """Seen failing (2026-12-03) without bare_paste: explain said no known problem matches; and once iterating explain's
    line view, which did not end then (match.Lines had no __iter__; it has since, tested below): the test hung."""
    each(((name, (text,)) for name, text in BARE), _bare)
    _near_miss(_VAE, OOM)


def test_explains_line_view_iterates_to_its_end():
    """match.Lines (the input's lines explain keeps around each hit) is a list-like view: iterating it must stop at the
    input's last line (before session 42's fix Python iterated it by index for ever: _bare_paste's first form hung)."""
    from attn_doctor.knowledge.match import Lines
    view = Lines({1: "a", 3: "c"}, 3)
    assert list(view) == ["a", "", "c"] and len(view) == 3
