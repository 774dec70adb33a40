"""Variants for helper ex35u (session 35): false findings on the unrelated logs of the training rounds (issue 23), fixed by
mechanism (benchmarks/results/explain-unrelated-s35.md lists every claimed log and its class).

Every case was written by hand (2026-12-02): other apps, models, libraries, paths and wordings than the logs. The positives name
what explain must still report (entry, backend; None: any backend); the near misses what it must not claim.

Mechanisms (knowledge file: rule; the unrelated logs it came from):
  note      attribution.toml [note_beside_failure], refusals.note_beside_failure: a note (severity info, never a failure's cause:
            an app's "Xformers is not installed!", transformers' "Flash Attention 2.0 ... model not initialized on GPU" and
            dtype advisories, torch's "not compiled with flash attention") in an input that quotes another failure whose
            message and frames name no attention library is no finding; alone, or beside a failure that names attention, it
            stays (round 9 Comfy-Org/ComfyUI#7309, round 27 NVlabs/VILA#160, round 79 Comfy-Org/ComfyUI#11048, round 95m
            haotian-liu/LLaVA#1338, ...)
  located   attribution.toml [fault_located], refusals.fault_located_elsewhere: a kernel fault whose message names the CUDA
            source file it faulted in, a path naming no attention library, is not claimed for a backend named near it in a
            config or a sentence (round 184m d8ahazard/sd_dreambooth_extension#915)
"""

from __future__ import annotations

from each_case import each
from explain_top import first, ids, tb

SITE = "/home/u/miniforge3/envs/lm/lib/python3.11/site-packages"
BANNER = "Currently enabled native sdp backends: ['flash', 'math', 'mem_efficient', 'cudnn']\nXformers is not installed!\nFlash Attn is not installed!\nSage Attn is not installed!\n"
ADVISORY = ("You are attempting to use Flash Attention 2.0 with a model not initialized on GPU. Make sure to move the model to GPU "
            "after initializing it on CPU with `model.to('cuda')`.\n")
DTYPE = ("Flash Attention 2.0 only supports torch.float16 and torch.bfloat16 dtypes, but the current dype in Qwen2ForCausalLM "
         "is torch.float32. You should run training or inference using Automatic Mixed-Precision via the `with "
         "torch.autocast(device_type='torch_device'):` decorator, or load the model with the `torch_dtype` argument.\n")

# what explain must still report: (entry id, backend or None) first, or (entry id, None, "in") anywhere in its list
POSITIVES = [
    # note: alone (the report is about the note)
    ("note-banner-question", "Should I install these into the portable folder?\n" + BANNER, ("app.attention-libraries-absent", None)),
    ("note-advisory-alone", "Is this warning a problem? My LoRA run on 4 x A100 keeps going.\n" + ADVISORY,
     ("fa2.model-not-on-gpu", "fa2")),
    ("note-dtype-zh", "这个提示需要处理吗？训练可以正常进行\n" + DTYPE, ("fa2.dtype-advisory", "fa2")),
    # note: the input's title retells it, over another error printed below (the report is about the note)
    ("note-title", "1Torch was not compiled with flash attention, generation is very slow\n\nlog:\n"
     "ConnectionResetError: [WinError 10054] An existing connection was forcibly closed by the remote host",
     ("sdpa.built-without-flash", "sdpa")),
    # note: beside a failure that names attention, the note stays in the list (the failure comes first)
    ("note-beside-fa-failure", ADVISORY + tb((f"{SITE}/transformers/modeling_flash_attention_utils.py", 380, "_flash_attention_forward",
                                              "attn_output = flash_attn_func(q, k, v, dropout, softmax_scale=softmax_scale, causal=causal)"),
                                             (f"{SITE}/flash_attn/flash_attn_interface.py", 90, "_flash_attn_forward",
                                              "out, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd("),
                                             error="RuntimeError: FlashAttention only supports Ampere GPUs or newer."),
     ("fa2.model-not-on-gpu", None, "in")),
    ("note-comfy-report-sage", "# ComfyUI Error Report\n## Error Details\n- **Node Type:** WanVideoSampler\n"
     "- **Exception Type:** ModuleNotFoundError\n- **Exception Message:** No module named 'sageattention'\n## Logs\n"
     "Warning: Could not load sageattention: No module named 'sageattention'\n", ("app.attention-libraries-absent", None, "in")),
    # located: a fault located in an attention library's own source stays the backend's
    ("located-xformers-source", "python train.py --xformers\nCUDA error: an illegal memory access was encountered at line 201 in file "
     "/opt/build/xformers/csrc/attention/cuda/fmha/kernel_forward.cu", ("cuda.kernel-fault", "xformers")),
    # located: no location in the message, a backend named beside it: as before
    ("located-none", "With --xformers on the trainer crashes:\nRuntimeError: CUDA error: an illegal memory access was encountered\n"
     "CUDA kernel errors might be asynchronously reported at some other API call", ("cuda.kernel-fault", "xformers")),
]

NEAR_MISSES = [
    # note: another program's failure quoted beside the note
    ("note-banner-tokenizer", BANNER + "Loading checkpoint shards: 100%\nValueError: Cannot use chat template functions because "
     "tokenizer.chat_template is not set and no template argument was passed!", "app.attention-libraries-absent"),
    ("note-advisory-keyerror", "$ python infer.py --model Qwen/Qwen3-Omni-30B-A3B-Instruct\n" + ADVISORY + tb((f"{SITE}/transformers/models/auto/configuration_auto.py", 1021, "from_pretrained",
                                              "config_class = CONFIG_MAPPING[config_dict[\"model_type\"]]"),
                                             (f"{SITE}/transformers/models/auto/configuration_auto.py", 723, "__getitem__",
                                              "raise KeyError(key)"), error="KeyError: 'qwen3_omni_moe'"), "fa2.model-not-on-gpu"),
    ("note-rank-dtype", "$ torchrun --nproc_per_node 8 -m verl.trainer.main_ppo\n[rank1]: " + DTYPE + "[rank1]: Traceback (most recent call last):\n"
     "[rank1]:   File \"/srv/verl/verl/utils/dataset/rl_dataset.py\", line 140, in __getitem__\n"
     "[rank1]:     row_dict = self.dataframe[item]\n"
     "[rank1]: IndexError: list index out of range", "fa2.dtype-advisory"),
    ("note-torch-warning-dataloader", "C:\\sd\\venv\\lib\\site-packages\\diffusers\\models\\attention_processor.py:1279: UserWarning: "
     "1Torch was not compiled with flash attention. (Triggered internally at ..\\aten\\src\\ATen\\native\\transformers\\cuda\\"
     "sdp_utils.cpp:455.)\n" + tb(("C:\\sd\\train_network.py", 311, "train", "for step, batch in enumerate(train_dataloader):"),
                                  ("C:\\sd\\library\\train_util.py", 1204, "__getitem__", "img = Image.open(path)"),
                                  error="FileNotFoundError: [Errno 2] No such file or directory: 'D:\\\\data\\\\img\\\\0001.png'"),
     "sdpa.built-without-flash"),
    ("note-comfy-validation", "Total VRAM 24564 MB, total RAM 65276 MB\npytorch version: 2.3.1+cu121\n"
     "no module 'xformers'. Processing without...\nStarting server\n\nTo see the GUI go to: http://127.0.0.1:8188\n"
     "got prompt\nFailed to validate prompt for output 9:\n* LoadImage 12:\n  - Invalid image file: portrait.webp\n"
     "Output will be ignored\nPrompt outputs failed validation", "app.attention-libraries-absent"),
    ("note-comfy-report", "# ComfyUI Error Report\n## Error Details\n- **Node ID:** 31\n- **Node Type:** KSampler\n"
     "- **Exception Type:** RuntimeError\n- **Exception Message:** mat1 and mat2 shapes cannot be multiplied (154x2048 and 768x320)\n"
     "## System Information\n- **ComfyUI Version:** 0.3.60\n## Logs\n"
     "2025-10-02T08:11:12.505991 - Warning: Could not load sageattention: No module named 'sageattention'\n"
     "2025-10-02T08:11:12.506002 - sageattention package is not installed", "app.attention-libraries-absent"),
    ("note-zh-title", "升级以后工作流跑不起来了\nWarning: Could not load sageattention: No module named 'sageattention'\n"
     "sageattention package is not installed\n" + tb(("D:\\ComfyUI\\execution.py", 327, "execute", "output_data = get_output_data(obj, input_data_all)"),
                                                     ("D:\\ComfyUI\\comfy\\sd.py", 640, "load_checkpoint_guess_config", "raise RuntimeError(msg)"),
                                                     error="RuntimeError: ERROR: Could not detect model type of: D:\\models\\mystery.safetensors"),
     "app.attention-libraries-absent"),
    # located: another library's CUDA source named in the fault, a backend only in the config above it
    ("located-other-source", "Error an illegal memory access was encountered at line 61 in file C:\\gs\\wt2\\csrc\\rasterize.cu\n\n"
     '`{\n    "adamw_weight_decay": 0.01,\n    "attention": "xformers",\n    "cache_latents": true,\n}', "cuda.kernel-fault"),
    ("located-bnb-config", "Error an illegal memory access was encountered at line 92 in file D:\\tools\\bitsandbytes\\csrc\\kernels.cu\n\n"
     '{\n    "attention": "xformers",\n    "optimizer": "AdamW8bit",\n    "mixed_precision": "fp16"\n}', "cuda.kernel-fault"),
]


def _positive(text, want):
    entry, backend, *where = want
    if where:
        assert entry in ids(text), ids(text)
        return
    got = first(text)
    assert got[0] == entry and (backend is None or got[1] == backend), got


def _near_miss(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_ex35u_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_ex35u_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)
