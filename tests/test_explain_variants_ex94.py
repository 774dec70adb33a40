"""Variants for helper ex94 (session 15): the misses of round 90m (fixtures/errors/round90m, gathered blind by ex90m in session 14
and measured by the lead three times), read for their mechanisms.

Every case was written by hand (2026-11-29): other backends, models, GPUs, versions, paths and wordings than the fixtures. The
positives name what explain must report first (entry, backend); the near misses what it must not claim.

Mechanisms (knowledge file: rule):
  slowcmp   prose.toml SLOW/SLOWCMP and prose.slow: a backend measured behind another and said so without the word slow
            ("underperforms", "decode performance significantly lower than", "perf regression"), a title naming the backend over
            a first line (past a heading) that says the regression, and a title that sets one backend against another ("vs.")
            over first lines about speed (pytorch#138493, sglang#5630, optimum-intel#976, CoMe#5); not a model that underperforms
            on accuracy, not a comparison of outputs
  eager     frameworks.toml transformers.default-attn-eager (new): a transformers release that moved a model's default attention
            to eager (optimum-intel#976)
  ninja     builds.toml build.windows-path-too-long: ninja's own "Filename longer than 260 characters" (xformers#1207)
  export    attention.toml attn.onnx-export-unsupported: a converter's SDPA translation without enable_gqa, as the TorchScript
            exporter's symbolic argument count and coremltools' shape check say it (pytorch#133314, coremltools#2855)
  dtensor   flex.toml flex.dispatch-mode-unsupported: DTensor inputs reaching flex_attention and its mask_mod (torchtitan#1440)
  fa4args   cute.toml cute.argument-combination: FA4 said to reject an argument (seqused_k, a page table) (pytorch#195603)
  xfbwd     xformers.toml xformers.unsupported-inputs: xformers' backward said to fail above a head dim (cloneofsimo/lora#103)
  rounding  attention.toml attn.backend-rounding: a numerical discrepancy said between two implementations by name
            (flash-attention#366, whose maintainer answers that it is expected)
  nanbang   attention.toml attn.nan-output: a generation of nothing but "!!!" (NaN logits decode as token 0) with an attention
            implementation or a half dtype named (transformers#38665)
  graph     attention.toml attn.cuda-graph-replay (new): wrong output under CUDA-graph capture and replay (flashdreams#639)
  unwritten attention.toml attn.wrong-output: a kernel said to leave part of its output unwritten (flash-attention#1214)
  shapes    attention.toml attn.memory-grows-with-shapes (new): memory that grows while the input shapes vary (pytorch#152550)
  layout    attention.toml attn.layout-mismatch: q, k, v built (batch, heads, seq, dim) and handed unchanged to a (batch, seq,
            heads, dim) function; attribution.toml: flash_attn_jax / flash_mha are FA2's kernels (flash_attn_jax#3)
  titan     frameworks.toml trainer.sdpa-mask-unsupported (new): a trainer's SDPA path that takes only the causal mask
            (torchtitan#1113)
  sfast     attribution.toml [[not_a_report.shadow]]: another package's compiled extension failing to load in its own words,
            the backends named only as versions tried (round 90m unrelated/: stable-fast#115)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from explain_top import first, ids

ROUND = Path(__file__).resolve().parents[1] / "fixtures" / "errors" / "round90m"


@pytest.mark.parametrize("text, want", [
    # slowcmp
    ("FlexAttention underperforms cuDNN SDPA for our ALiBi bias at 8k tokens", ("prose.slow", "flex")),
    ("xformers decode performance is 2x lower than flash-attn on L40S", ("prose.slow", "xformers")),
    ("sageattn kernel throughput much worse than FA2 on the 4090 at head dim 64", ("prose.slow", "sage")),
    ("Switch the default to SDPA for Phi-3\n\n## Motivation\ntransformers 4.47 has a perf regression for phi3 when the eager path runs",
     ("prose.slow", "sdpa")),
    ("flex_attention vs flash_attn_func on H100\n\nI expected flex to be close to FA2, but the latency numbers below say otherwise.",
     ("prose.slow", "flex")),
    ("SageAttention versus SDPA\n\nThanks for the project! What speed-up should I expect on an A100?", ("prose.slow", "sage")),
    # eager
    ("After upgrading transformers the default attn_implementation was switched from sdpa to eager for Gemma 2",
     ("transformers.default-attn-eager", "sdpa")),
    ("the loader now defaults to eager attention rather than flash_attention_2 for this model", ("transformers.default-attn-eager", "sdpa")),
    # ninja
    ("ninja: error: Stat(D:/a/sageattention/build/temp.win-amd64-cpython-312/Release/csrc/qattn/qk_int_sv_f8_cuda_sm90.obj): "
     "Filename longer than 260 characters", ("build.windows-path-too-long", "sage")),
    # export
    ("torch.onnx.errors.SymbolicValueError: A mismatch between the number of arguments (9) and their descriptors (8) was found at "
     "symbolic function 'scaled_dot_product_attention'.", ("attn.onnx-export-unsupported", "sdpa")),
    ("ct.convert fails for Llama 3.2, whose scaled_dot_product_attention takes enable_gqa=True:\nValueError: query, key, value must have a same batch dimension, got\n"
     "* query batch = (1, 24)\n* key batch = (1, 8)", ("attn.onnx-export-unsupported", "sdpa")),
    # dtensor
    ("With tensor parallel the flex_attention call gets DTensor q/k/v and the block mask breaks", ("flex.dispatch-mode-unsupported", "flex")),
    ("score_mod receives a DTensor under context parallelism and indexing the bias fails", ("flex.dispatch-mode-unsupported", "flex")),
    ("NotImplementedError: There was no rule registered for HOP flex_attention and subclass "
     "<class 'torch.distributed.tensor.DTensor'>. We recommend filing an issue.", ("flex.dispatch-mode-unsupported", "flex")),
    # fa4args
    ("On B200 FA4 rejects page_table for head_dim 192 in the varlen path", ("cute.argument-combination", "cute")),
    ("flash-attn-4 does not support learnable_sink with this kernel yet", ("cute.argument-combination", "cute")),
    # xfbwd
    ("memory_efficient_attention backward fails when the head dimension is above 128 on my RTX 2080", ("xformers.unsupported-inputs", "xformers")),
    ("xformers: the backward pass fails for dim per head > 64 on consumer cards", ("xformers.unsupported-inputs", "xformers")),
    # rounding
    ("Numeric differences between flex_attention and the math reference in bf16?", ("attn.backend-rounding", "flex")),
    ("precision gap between xformers and sdpa when running SDXL in fp16", ("attn.backend-rounding", "xformers")),
    # nanbang
    ("With float16 + SDPA the fine-tuned Qwen2-VL generates only \"!!!!!!!!\"", ("attn.nan-output", "sdpa")),
    ("Llama 3 returns !!!!!!!!!! with flash_attention_2 in fp16", ("attn.nan-output", "fa2")),
    # graph
    ("FA3 decode with CUDA graphs: graph replay returns wrong tokens after capture", ("attn.cuda-graph-replay", "fa3")),
    ("Incorrect outputs with CUDA graphs when the attention backend is sage", ("attn.cuda-graph-replay", "sage")),
    # unwritten
    ("flash_attn_varlen_func fails to write the output rows of the last sequence for head_dim 160", ("attn.wrong-output", "fa2")),
    ("It looks like SageAttention leaves some of the output uninitialized for odd sequence lengths", ("attn.wrong-output", "sage")),
    # shapes
    ("SDPA memory keeps growing with varying sequence lengths on the MPS backend", ("attn.memory-grows-with-shapes", "sdpa")),
    ("xformers: with different resolutions memory leaks on every generation", ("attn.memory-grows-with-shapes", "xformers")),
    # layout
    ("q = torch.randn(shape, dtype=torch.bfloat16, device='cuda')\nshape = (batch, heads, seq, dim)\n"
     "q = torch.randn(shape); k = torch.randn(shape); v = torch.randn(shape)\n"
     "out = memory_efficient_attention(q, k, v)\nprint((out - ref).abs().mean())", ("attn.layout-mismatch", "xformers")),
    ("flash_attn_jax gives different values than my attention\n\nshape = (B, H, T, D)\nq = jnp.ones(shape)\n"
     "o = flash_mha(q, k, v, softmax_scale=0.125)", ("attn.layout-mismatch", "fa2")),
    # titan
    ("ValueError: TorchTitan with SDPA currently only supports causal mask, but was document_mask", ("trainer.sdpa-mask-unsupported", "sdpa")),
    ("ValueError: the trainer with SDPA does not support block_causal masks; use flex", ("trainer.sdpa-mask-unsupported", "sdpa")),
])
def test_round90m_mechanism_variants(text, want):
    assert first(text) == want, ids(text)


@pytest.mark.parametrize("text, must_not", [
    # slowcmp: accuracy, scores and losses are not speed; outputs compared are not a benchmark
    ("The model fine-tuned with flash attention underperforms the eager one on MMLU accuracy", "prose.slow"),
    ("FA2 underperforms eager in eval loss after 3 epochs", "prose.slow"),
    ("FlexAttention vs. SDPA\n\nThe outputs differ in the last decimal; is this expected?", "prose.slow"),
    ("training performance lower than expected with the new data mix (flash attention on)", "prose.slow"),
    # eager: a user's own switch, a default named without a move to eager
    ("I set attn_implementation to eager myself and it runs fine", "transformers.default-attn-eager"),
    ("the default attention is sdpa for this model", "transformers.default-attn-eager"),
    # ninja: another path limit wording that is not a build's
    ("The filename is longer than 260 characters in my notes app", "build.windows-path-too-long"),
    # export: another argument count mismatch, a batch dimension check of another op
    ("A mismatch between the number of arguments (3) and their descriptors (2) was found at symbolic function 'layer_norm'",
     "attn.onnx-export-unsupported"),
    ("ValueError: input and target must have the same batch dimension", "attn.onnx-export-unsupported"),
    # dtensor: DTensor with another op, FlexAttention without DTensor
    ("DTensor redistribute fails in the MLP under tensor parallel", "flex.dispatch-mode-unsupported"),
    ("FlexAttention with a document mask works fine with FSDP2", "flex.dispatch-mode-unsupported"),
    # fa4args: FA4 supporting an argument, another library rejecting one
    ("FA4 now supports seqused_k in the varlen path since 4.0.0b20", "cute.argument-combination"),
    ("FlashInfer rejects page_table of int64", "cute.argument-combination"),
    # xfbwd: a forward that works, another function failing above a size
    ("memory_efficient_attention works when K > 64 on the A100", "xformers.unsupported-inputs"),
    ("the dataloader fails when batch size > 64", "xformers.unsupported-inputs"),
    # rounding: a large discrepancy is no rounding; a discrepancy between runs
    ("significant numerical discrepancy between flash_attn and xformers at 32k tokens", "attn.backend-rounding"),
    ("numerical difference between two runs with the same seed", "attn.backend-rounding"),
    # nanbang: exclamation marks in prose, a log line, a dtype named without output
    ("fp16 works now!!! thanks", "attn.nan-output"),
    ("sdpa gives great results!!!", "attn.nan-output"),
    # graph: CUDA graphs that work; wrong output with no CUDA graph
    ("CUDA graph replay gives the same output as eager with sageattn now", "attn.cuda-graph-replay"),
    ("sageattn gives wrong outputs on the 5090", "attn.cuda-graph-replay"),
    ("vLLM gives wrong outputs under CUDA graphs with my Mamba model", "attn.cuda-graph-replay"),
    # unwritten: a build or a file, not a tensor
    ("flash_attn failed to write the checkpoint to disk", "attn.wrong-output"),
    ("xformers build failed to write output file", "attn.wrong-output"),
    # shapes: memory growth with a fixed shape, with no backend named
    ("my dataloader memory keeps growing with variable sequence lengths", "attn.memory-grows-with-shapes"),
    ("SDPA memory is flat at a fixed sequence length", "attn.memory-grows-with-shapes"),
    # layout: the tensors transposed in the call, built BSHD
    ("shape = (B, H, S, D)\nq = torch.randn(shape)\nout = flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))",
     "attn.layout-mismatch"),
    ("shape = (B, S, H, D)\nq = torch.randn(shape)\nout = flash_attn_func(q, k, v)", "attn.layout-mismatch"),
    # titan: SDPA said to support the causal mask, FlexAttention refusing
    ("SDPA supports the causal mask through is_causal=True", "trainer.sdpa-mask-unsupported"),
    ("ValueError: FlexAttention only supports causal mask here, but was sliding_window", "trainer.sdpa-mask-unsupported"),
])
def test_round90m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


@pytest.mark.parametrize("text, want", [
    # sfast: the backend's own failure beside another package's extension is still claimed
    ("Error importing sfast._C with xformers 0.0.23\nUnable to load stable-fast C extension.\n"
     "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.1+cu121)", "xformers.built-for-other-torch"),
])
def test_round90m_backend_failure_beside_another_extension_is_claimed(text, want):
    assert want in ids(text), ids(text)


@pytest.mark.parametrize("text", [
    # sfast: another package's extension, the backends named only as versions tried
    "Error importing mypkg._C with PyTorch 2.4 and flash-attn 2.6.3\n\nI tried flash-attn 2.5.8 too, same error, what should I do?",
    "ImportError in the node pack\n***ERROR IMPORTING fastops._C***\nUnable to load fastops C++ extension.\n"
    "I reinstalled xformers==0.0.28 but it still fails",
])
def test_round90m_other_extension_with_backends_named_in_passing_is_not_claimed(text):
    assert not [i for i in ids(text) if i.startswith("prose.")], ids(text)


RULED = {"prose.slow", "transformers.default-attn-eager", "build.windows-path-too-long", "attn.onnx-export-unsupported",
         "flex.dispatch-mode-unsupported", "cute.argument-combination", "xformers.unsupported-inputs", "attn.backend-rounding",
         "attn.nan-output", "attn.cuda-graph-replay", "attn.wrong-output", "attn.memory-grows-with-shapes", "attn.layout-mismatch",
         "trainer.sdpa-mask-unsupported"}


def test_round90m_unrelated_logs_are_claimed_by_no_rule_of_ex94():
    """The unrelated logs of round 90m (failures no attention backend causes) match none of the entries ex94 wrote or widened."""
    texts = sorted((ROUND / "unrelated").glob("*.txt"))
    assert len(texts) >= 16
    for p in texts:
        body = p.read_text(encoding="utf-8").split("\n---\n", 1)[1]
        assert not RULED & set(ids(body)), (p.name, ids(body))
