"""Variants for helper ex120 (session 20): unrelated failures that name an attention backend in passing, and the true
positives beside them (the same logs where the backend really fails).

Every case was written by hand (2026-11-30): other programs, paths, exceptions, wordings and languages than the fixtures
(fixtures/errors/round22, round32, round9 and round92 unrelated logs). A near miss (`want` None) must get no reading from a
sentence reader or a last resort (prose.*, triage.*, attn.nan-output, attn.kernel-hang, attn.wrong-output), ("!", b) no
reading with backend b; a positive
(`want` an (entry prefix, backend) pair) must keep a reading of that entry with that backend.

Mechanisms:
  quoted     attribution/refusals.py _other_failure_quoted (through not_a_report): a report that quotes its failure, a
             traceback of two or more frames and its exception line or ComfyUI's error report, where none of it names
             attention and the exception is none any kernel may raise (a CUDA fault, NaN, out of memory, a compiler's):
             a sentence that names a backend in passing is no reading of it
  unused     attribution/refusals.py _exonerated (UNUSED beside UNRELATED, CLEARED): "these nodes do not use xformers, so
             that's unrelated" clears the backend a sentence names
  nonfatal   attribution.toml [optional_notice]: a sentence that calls the backend's message non-fatal, harmless or one
             that can be ignored is the same notice as "Proceeding without it"; a title or sentence naming the backend
             whose notice the input prints elsewhere retells it (attribution/refusals.py _notice_retold)
  rust       attribution.toml [[not_a_report.shadow]] (every): a Rust program's backtrace (symbols ending in ::h and 16 hex
             digits) is that engine's own attention, unless candle-flash-attn (FA2's kernels) is in it
  dsl        attribution.toml [dsl_kernel] others + refusals.unclaimed: a catch-all the CuTe DSL's name gave to FA4, beside
             another program's kernel (a GEMM named in words) and nothing of FA4, is unclaimed
  inventory  attribution.toml [inventory]: a heading that introduces a library's info dump ("**My xformers info:**"), its
             rows ("memory_efficient_attention.cutlassF:   available") and a package with its version alone list what is
             there: no evidence for whose an error above them is
"""

from __future__ import annotations

import pytest

from explain_top import tb

READERS = ("prose.", "triage.", "attn.nan-output", "attn.kernel-hang", "attn.wrong-output")

REPORT = ("## Error Details\n- **Node ID:** {node_id}\n- **Node Type:** {node}\n- **Exception Type:** {etype}\n"
          "- **Exception Message:** {message}\n## Stack Trace\n```\n"
          '  File "C:\\ComfyUI_windows_portable\\ComfyUI\\execution.py", line 327, in execute\n'
          "    output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all)\n")

CASES = [
    # quoted: near misses (the traceback is another library's: a dataset, an installer, a checkpoint, NCCL)
    ("flash-attn title, datasets KeyError",
     "Flash attention 2 training keeps failing\n\nI run the SFT recipe with flash_attention_2 on 8 H100s.\n\n"
     + tb(("/home/ml/sft/train.py", 214, "main", "ds = ds.map(tokenize, batched=True)"),
          ("/opt/conda/lib/python3.11/site-packages/datasets/arrow_dataset.py", 3093, "map", "for rank, done, content in "
           "Dataset._map_single(**dataset_kwargs):"),
          ("/home/ml/sft/train.py", 120, "tokenize", "return tok(batch['prompt'])"),
          error="KeyError: 'prompt'"), None),
    ("sage pipeline, dataset FileNotFoundError (Chinese title)",
     "用 SageAttention 跑训练脚本一直报错\n\n"
     + tb(("D:\\lora\\sd-scripts\\train_network.py", 1033, "<module>", "trainer.train(args)"),
          ("D:\\lora\\sd-scripts\\library\\train_util.py", 1802, "__init__", "img_paths = glob_images(subset.image_dir)"),
          error="FileNotFoundError: [WinError 3] The system cannot find the path specified: 'D:/lora/img/10_girl'"), None),
    ("xformers installer notice over a subprocess failure",
     "`RTX 5090 detected, skipping xformers!\nPatching torch...\n"
     + tb(("/opt/trainer/installer.py", 77, "main", "setup_venv()"),
          ("/usr/lib/python3.12/subprocess.py", 413, "check_call", "raise CalledProcessError(retcode, cmd)"),
          error="subprocess.CalledProcessError: Command 'venv/bin/python patch_torch.py' returned non-zero exit status 2."),
     None),
    # (ex93's titles over the same kinds of traceback: before ex120 they were read as the backend's)
    ("ex93's xformers title over a tokenizer's TypeError",
     "Not working with xformers\n"
     + tb(("/home/u/webui/modules/sd_hijack_clip.py", 41, "tokenize",
           "tokenized = self.wrapped.tokenizer(texts, truncation=False)['input_ids']"),
          ("/home/u/webui/venv/lib/python3.10/site-packages/transformers/tokenization_utils_base.py", 2802, "__call__",
           "encodings = self._call_one(text=text, text_pair=text_pair, **all_kwargs)"),
          error="TypeError: 'NoneType' object is not callable"), None),
    ("ex93's Sage title over a killed DataLoader worker",
     "SageAttention error on RTX 5090 after update\n"
     + tb(("/opt/app/train.py", 301, "<module>", "for batch in loader:"),
          ("/opt/conda/lib/python3.11/site-packages/torch/utils/data/dataloader.py", 1328, "_next_data",
           "idx, data = self._get_data()"),
          error="RuntimeError: DataLoader worker (pid 4123) is killed by signal: Killed."), None),
    ("flash_attention_2 model, NCCL watchdog timeout",
     "Training Qwen with attn_implementation=flash_attention_2 dies after 30 minutes, flash attention seems broken\n\n"
     + tb(("/workspace/train.py", 402, "training_step", "self.accelerator.backward(loss)"),
          ("/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", 2288, "all_reduce",
           "work = group.allreduce([tensor], opts)"),
          error="torch.distributed.DistBackendError: [Rank 3] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=1532, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800041 "
                "milliseconds before timing out."), None),
    ("FA2 title over torchrun's rank-prefixed NCCL timeout",
     "FlashAttention-2 run dies at step 1200\n\n"
     "[rank3]: Traceback (most recent call last):\n"
     '[rank3]:   File "/workspace/train.py", line 402, in training_step\n'
     "[rank3]:     self.accelerator.backward(loss)\n"
     '[rank3]:   File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line 2288, in barrier\n'
     "[rank3]:     work = group.barrier(opts=opts)\n"
     "[rank3]: torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from "
     "[0] via c10d key-value store by key '0', but store->get('0') got error: wait timeout after 600000ms", None),
    ("FA2 title over a rank-prefixed traceback through flash_attn",
     "FlashAttention-2 run dies at step 1200\n\n"
     "[rank3]: Traceback (most recent call last):\n"
     '[rank3]:   File "/workspace/train.py", line 402, in training_step\n'
     "[rank3]:     out = model(**batch)\n"
     '[rank3]:   File "/usr/local/lib/python3.10/dist-packages/flash_attn/flash_attn_interface.py", line 96, in '
     "_flash_attn_varlen_forward\n"
     "[rank3]:     out, softmax_lse, S_dmask, rng_state = flash_attn_cuda.varlen_fwd(\n"
     "[rank3]: RuntimeError: cu_seqlens_q must have shape (batch_size + 1)", ("", "fa2")),
    ("xformers sentence over ComfyUI's report of a missing image",
     "i reinstalled xformers and the errors still pop up, nothing works\n\n"
     + REPORT.format(node_id=14, node="LoadImage", etype="FileNotFoundError",
                     message="[Errno 2] No such file or directory: 'input/clip_0001.png'"), None),
    ("xformers title, the exception's message continues with no attention in it",
     "xformers error when training\n\n"
     + tb(("/srv/kohya/train_network.py", 990, "train", "for step, batch in enumerate(train_dataloader):"),
          ("/srv/venv/lib/python3.10/site-packages/torch/utils/data/dataloader.py", 1344, "_process_data",
           "data.reraise()"),
          error="PIL.UnidentifiedImageError: cannot identify image file\n'/data/set/15_cat/IMG_0042.webp'"), None),
    # quoted: positives (the traceback is the backend's, or its exception is a kernel fault only the sentence places)
    ("flash-attn title, flash_attn frames",
     "Flash attention 2 training keeps failing\n\n"
     + tb(("/home/ml/sft/train.py", 214, "main", "trainer.train()"),
          ("/opt/conda/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py", 91, "_flash_attn_forward",
           "out, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd("),
          error="RuntimeError: FlashAttention only supports Ampere GPUs or newer."), ("", "fa2")),
    ("clean frames, the exception's next line names the backend's library",
     "Training fails at import\n\n"
     + tb(("/opt/venv/lib/python3.11/site-packages/transformers/utils/import_utils.py", 1863, "__getattr__",
           "module = self._get_module(self._class_to_module[name])"),
          ("/opt/venv/lib/python3.11/site-packages/transformers/utils/import_utils.py", 1875, "_get_module",
           "raise RuntimeError("),
          error="RuntimeError: Failed to import transformers.models.qwen2.modeling_qwen2 because of the following error "
                "(look up to see its traceback):\n/opt/venv/lib/python3.11/site-packages/sageattention/_qattn_sm90.so: "
                "cannot open shared object file: No such file or directory"), ("", "sage")),
    ("xformers title, clean frames, a dtype refusal",
     "xformers breaks training since the update\n\n"
     + tb(("/srv/kohya/train_network.py", 990, "train", "noise_pred = unet(noisy_latents, timesteps, text_embeds)"),
          ("/srv/kohya/library/original_unet.py", 455, "forward", "hidden_states = self.proj_in(hidden_states)"),
          error="RuntimeError: expected scalar type Half but found Float"), ("", "xformers")),
    ("sage title, clean frames, CUDA fault",
     "SageAttention crashes in backward on my 5090\n\n"
     + tb(("/srv/wan/train.py", 88, "step", "loss.backward()"),
          ("/srv/venv/lib/python3.12/site-packages/torch/_tensor.py", 626, "backward", "torch.autograd.backward("),
          error="RuntimeError: CUDA error: an illegal memory access was encountered"), ("", "sage")),
    ("sentence beside ComfyUI's report of a Sage node",
     "sage attention fails every time, even after reinstalling it\n\n"
     + REPORT.format(node_id=31, node="PatchSageAttentionKJ", etype="RuntimeError",
                     message="SageAttention kernel failed: head_dim 72 is not supported"), ("", "sage")),
    # unused: near misses and a positive
    ("maintainer: the nodes do not use xformers",
     "xFormers not available\n\nComfyUI will not start after installing the pack.\n"
     "This pack does not use xformers at all, so that message is unrelated.", None),
    ("maintainer: flash-attn is irrelevant here (says the backend, not the code)",
     "flash_attn not found\n\nThe script stops at the first step.\nflash_attn is irrelevant here, the script never imports it.",
     None),
    ("another backend cleared, the failing one kept",
     "xformers crashes during backward\n\nThe model does not use flash attention, so that part is unrelated.",
     ("prose.", "xformers")),
    # inventory: an OOM above an info dump is nobody's backend; raised in the backend's frames it is. (Helper ex42u, session 42:
    # and nobody's failure to claim: an upscaler's 2.25 GiB OOM with no attention near it is any model's, train.oom is in
    # [needs_backend] now, as round 79's unrelated CompVis/stable-diffusion#712 of this shape is labelled; the point stays: not
    # xformers)
    ("OOM above xformers.info's dump",
     "Upscaling at 2x runs out of memory on my 3070\n\n"
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.25 GiB. GPU 0 has a total capacity of 8.00 GiB of "
     "which 1.10 GiB is free.\n\nxformers info:\nxFormers 0.0.28.post3\n"
     "memory_efficient_attention.ckF:                    unavailable\n"
     "memory_efficient_attention.cutlassF-pt:            available\n", ("!", "xformers")),
    ("OOM raised in xformers' frames",
     "Upscaling at 2x runs out of memory on my 3070\n\n"
     + tb(("/srv/webui/modules/sd_hijack_optimizations.py", 496, "xformers_attention_forward",
           "out = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=None)"),
          ("/srv/venv/lib/python3.10/site-packages/xformers/ops/fmha/__init__.py", 223, "memory_efficient_attention",
           "return _memory_efficient_attention("),
          error="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.25 GiB. GPU 0 has a total capacity of "
                "8.00 GiB of which 1.10 GiB is free."), ("", "xformers")),
    # rust: a Rust engine's backtrace is its own attention; candle-flash-attn compiles FA2's kernels
    ("a Rust engine's flash attention panics",
     "Flash attention crashes on my RTX 5090\n\n```\nthread 'tokio-runtime-worker' panicked at src/ops/attention.rs:88:9:\n"
     "  12:     0x5581c1e2a3f4 - mistralrs_core::pipeline::inputs_processor::forward::h0c1d2e3f4a5b6c7d\n"
     "  13:     0x5581c1e2b000 - tokio::runtime::task::harness::Harness<T,S>::poll::h1a2b3c4d5e6f7a8b\n```", None),
    ("candle-flash-attn panics",
     "Flash attention crashes on my RTX 5090\n\n```\nthread 'main' panicked at candle-flash-attn/src/lib.rs:88:9:\n"
     "  12:     0x5581c1e2a3f4 - candle_flash_attn::ffi::run_mha::h0c1d2e3f4a5b6c7d\n"
     "  13:     0x5581c1e2b000 - candle_core::storage::Storage::apply_op3::h1a2b3c4d5e6f7a8b\n```", ("", "fa2")),
    # dsl: the CuTe DSL named for a GEMM kernel is no FA4 failure; beside FA4's own files it is
    ("a GEMM kernel of the CuTe DSL fails to compile",
     "[Bug]: cutedsl kernel fails after upgrading the DSL\n\nAll bf16 variants of the `blockscaled_gemm_swiglu` CuTe DSL "
     "kernel fail to compile with nvidia-cutlass-dsl==4.6.0 on sm_100a:\n```\n"
     "cutlass.base_dsl.compiler.CompilerDiagnosticError: error: NVVM backend compilation failed\n```", ("!", "cute")),
    ("FA4's backward fails to compile in the same DSL",
     "[Bug]: FA4 backward fails after upgrading the DSL\n\n```\n"
     '  File "/opt/venv/lib/python3.12/site-packages/flash_attn/cute/flash_bwd_sm100.py", line 88, in __call__\n'
     "cutlass.base_dsl.compiler.CompilerDiagnosticError: error: NVVM backend compilation failed\n```", ("", "cute")),
    # nonfatal: near misses and a positive
    ("a harmless flash_attn import warning",
     "There is a non-fatal warning that flash_attn could not be imported, but the UI never opens.", None),
    ("the sage notice can be ignored",
     "The message that sageattention failed to import can be safely ignored; my problem is the missing model.", None),
    ("a title that retells the notice the log prints",
     '[Bug]: No module "flash_attn" and garbled output\n\nWhen I start it, it prints " No module "flash_attn". '
     'Proceeding without it "\nthen the answers are garbled.', None),
    ("a Chinese title that retells the notice",
     "xformers 没有安装，视频全绿\n\n控制台显示：No module 'xformers'. Proceeding without it.\n", None),
    ("a title that says the backend fails when present, over its notice",
     "Without flash_attn the answers are short, while with flash_attn installed the script fails.\n\n"
     "At first, \"No module 'flash_attn'. Proceeding without it\" was printed and it ran.\n", ("prose.", "fa2")),
    ("a title about xformers over another backend's notice",
     "xformers crashes on every step\n\nThe console says: flash_attn not installed, running without it\n", ("prose.", "xformers")),
    ("a sage import that fails the run",
     "sageattention fails to import and the workflow stops", ("", "sage")),
]


def _found(text: str) -> list[tuple[str, str | None]]:
    from attn_doctor.explain import match

    return [(m.entry.id, m.backend) for m in match(text)]


@pytest.mark.parametrize("name,text,want", CASES, ids=[c[0] for c in CASES])
def test_unrelated_failure_named_in_passing(name, text, want):
    found = _found(text)
    if want is None:
        assert [f for f in found if f[0].startswith(READERS)] == [], found
    elif want[0] == "!":  # no reading gives this backend
        assert [f for f in found if f[1] == want[1]] == [], found
    else:
        prefix, backend = want
        assert any(i.startswith(prefix) and b == backend for i, b in found), found
