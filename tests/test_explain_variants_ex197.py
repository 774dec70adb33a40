"""Variants for helper ex197 (session 35): the misses of round 197m (fixtures/errors/round197m, gathered blind by ex197m in
session 34, measured three times by the lead, training material since this helper read it).

Every case was written by hand (2026-12-02): other models, versions, paths, apps and wordings than the fixtures, Chinese or
Japanese where prose carries the rule. The positives name what explain must report first (entry, backend; None: any backend);
the near misses what it must not claim; no pattern written or widened here matches an unrelated log of any training round (the
measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 197m text it came from):
  quoteless   attention.toml attn.import-guard: the guard's "'NoneType' object has no attribute 'memory_efficient_attention'"
              retold with its closing quote lost (wusize/CLIPSelf#20)
  modestub    attention.toml attn.import-guard: an app's stand-in for the attention mode it was set to, "Selected attention mode
              not available. Please ensure required packages are installed" (Comfy-Org/ComfyUI#11885)
  namedop     xformers.toml xformers.unsupported-inputs: the operator forced with op= refusing the inputs by its own name
              (facebookresearch/xformers#618)
  renamed     flash_attn.toml fa2.api-renamed: FA1's unpadded names said renamed, a failure beside it (apple/ml-ferret#9)
  converter   attention.toml attn.onnx-export-unsupported: aten's SDPA op said unsupported by a converter, EN/JA/ZH/KO
              (ailia-ai/ailia-models#1331)
  manifest    flash_attn.toml fa2.missing, xformers.toml xformers.not-installed, sage.toml sage.not-installed: the backend left
              out of the project's install manifest (bunnelab/virtues#9)
  fixtitle    the same three entries and attribution.toml [described_fallback] `failed`: a fix's title about running when the
              backend is not installed (huggingface/lerobot#3726)
  fallback    frameworks.toml app.fallback-attention-broken: the backend's code switched off by hand near wrong output
              (NVlabs/VILA#77), or switched off in the config with an error on that line (xxlong0/Wonder3D#59)
  entrypoint  imports.toml import.dll-load-failed: "<backend> entry point not found" (LykosAI/StabilityMatrix#826)
  cpu         xformers.toml xformers.no-cuda: a run said to fail on the CPU over the model's xformers call (baaivision/EVA#92)
  foreign     attribution.toml "foreign" [[library]]: Lightning Attention's own Triton kernels, a custom op namespace none of the
              seven registers (OpenNLPLab/lightning-attention#6, stepfun-ai/Step-Audio-EditX#22: unrelated logs)
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_claim_no_unrelated_log, assert_patterns_match_no_unrelated_log, first, ids, tb

POSITIVES = [
    # quoteless: another backend's name, another app
    ("quoteless-fa", "Running the VQA demo I get AttributeError: 'NoneType' object has no attribute 'flash_attn_varlen_func at model.py:140",
     ("attn.import-guard", "fa2")),
    ("quoteless-sage", "ComfyUI says 'NoneType' object has no attribute 'sageattn_qk_int8_pv_fp16_cuda when the sampler starts",
     ("attn.import-guard", "sage")),
    # modestub: other wordings of the same stand-in
    ("modestub-backend", "ValueError: Chosen attention backend is not available. Make sure the required libraries are installed.",
     ("attn.import-guard", None)),
    ("modestub-impl", "Exception: specified attention implementation unavailable, please check that the packages are installed",
     ("attn.import-guard", None)),
    # namedop: other operators, a release tag
    ("namedop-cutlass", "NotImplementedError: Operator `cutlassB` does not support inputs:\n     query       : shape=(4, 1024, 8, 256) (torch.float32)",
     ("xformers.unsupported-inputs", "xformers")),
    ("namedop-tagged", "ValueError: xformers.memory_efficient_attention: Operator fa2F@2.3.6 does not support this input",
     ("xformers.unsupported-inputs", "xformers")),
    # renamed: another FA1 name, another verb order
    ("renamed-fail", "Training fails: flash_attn_unpadded_func got renamed in flash-attn 2.x and our trainer still imports it",
     ("fa2.api-renamed", "fa2")),
    # converter: other converters, other ops, other languages
    ("converter-ja", "TensorRT 変換で aten::_scaled_dot_product_efficient_attention はサポートされていません", ("attn.onnx-export-unsupported", "sdpa")),
    ("converter-zh", "用 pnnx 转模型时提示 aten::scaled_dot_product_attention 暂不支持", ("attn.onnx-export-unsupported", "sdpa")),
    ("converter-ko", "aten::scaled_dot_product_attention 연산이 지원되지 않습니다 (coremltools 8.0)", ("attn.onnx-export-unsupported", "sdpa")),
    # manifest: other manifests, other backends, Chinese
    ("manifest-xf", "xformers missing from environment.yaml: the UNet's attention blocks import it at load", ("xformers.not-installed", "xformers")),
    ("manifest-fa", "pyproject.toml does not list flash_attn although models/encoder.py needs it", ("fa2.missing", "fa2")),
    ("manifest-sage", "The README's install steps don't include sageattention, yet the default attention_mode is sageattn", ("sage.not-installed", "sage")),
    ("manifest-zh", "安装脚本里没有 xformers，跑 demo 直接报错", ("xformers.not-installed", "xformers")),
    # fixtitle: other fix styles, other backends
    ("fixtitle-scope", "fix(pipeline): run the VAE when xformers isn't installed", ("xformers.not-installed", "xformers")),
    ("fixtitle-without", "Fix: inference without flash-attn installed crashes at load", ("fa2.missing", "fa2")),
    ("fixtitle-bracket", "[Bugfix] fall back to SDPA if sageattention is missing", ("sage.not-installed", "sage")),
    # fallback: other verbs, other backends, the config switch
    ("fallback-commented", "I commented out the xformers import since my card is a 1080.\nThe generated images are garbled, any idea?",
     ("app.fallback-attention-broken", "xformers")),
    ("fallback-wrongfirst", "Every response is gibberish\n\nwe removed flash attention for the V100 run",
     ("app.fallback-attention-broken", "fa2")),
    ("fallback-yaml", "set use_xformers: false in configs/infer.yaml and now it throws a shape error", ("app.fallback-attention-broken", None)),
    ("fallback-flag", "python app.py --no-xformers raises RuntimeError in the motion module", ("app.fallback-attention-broken", None)),
    # entrypoint: other backends, other word order
    ("entrypoint-fa", "flash_attn_2_cuda: procedure entry point could not be located in the DLL", ("import.dll-load-failed", "fa2")),
    # cpu: another model, another wording, the call under other names
    ("cpu-model", "Unable to run inference on CPU\n" + tb(("/opt/app/blip/vit.py", 190, "forward",
                                                          "out = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=None)")),
     ("xformers.no-cuda", "xformers")),
]

NEAR_MISSES = [
    # quoteless: another attribute of a None
    ("quoteless-other", "AttributeError: 'NoneType' object has no attribute 'attn_bias_type, at line 12 of the config loader", "attn.import-guard"),
    # modestub: the mode said available
    ("modestub-fine", "Selected attention mode is available, the required packages are installed", "attn.import-guard"),
    # namedop: another library's operator
    ("namedop-onnx", "ValueError: Operator Where does not support this input", "xformers.unsupported-inputs"),
    # renamed: the rename stated alone (docs)
    ("renamed-docs", "flash_attn_unpadded_func was renamed to flash_attn_varlen_func in 2.0", "fa2.api-renamed"),
    # converter: a device's missing kernel, not a converter's
    ("converter-mps", "NotImplementedError: aten::_scaled_dot_product_flash_attention_for_cpu is not supported on the MPS device", "attn.onnx-export-unsupported"),
    # manifest: FA3 is not FA2; a manifest that includes it
    ("manifest-fa3", "FlashAttention 3 is not included in requirements.txt", "fa2.missing"),
    ("manifest-has", "requirements.txt includes flash-attn 2.6.3 already", "fa2.missing"),
    # fixtitle: a docs or test fix; a sentence describing a fallback (no fix title)
    ("fixtitle-docs", "fix: docs for running without flash-attn installed", "fa2.missing"),
    ("fixtitle-tests", "fix(ci): run tests when flash-attn is not installed", "fa2.missing"),
    ("fixtitle-notice", "The node falls back to SDPA when flash-attn is not installed", "fa2.missing"),
    # fallback: switched off and fine; wrong output with the backend on
    ("fallback-noerror", "With xformers: false the run works without errors", "app.fallback-attention-broken"),
    ("fallback-on", "I enabled flash attention.\nThe output is wrong", "app.fallback-attention-broken"),
    ("fallback-mention", "I already run with --disable-xformers, so I don't know why the error message suggests it", "app.fallback-attention-broken"),
    # entrypoint: another DLL
    ("entrypoint-other", "bitsandbytes entry point not found", "import.dll-load-failed"),
    # cpu: the CPU words with no xformers call under them
    ("cpu-noxf", "Cannot run on CPU\n" + tb(("/opt/app/vit.py", 90, "forward", "out = F.scaled_dot_product_attention(q, k, v)")), "xformers.no-cuda"),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert got[0] == entry and (backend is None or got[1] == backend), got


def _near_miss(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round197m_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_round197m_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)


def test_round197m_foreign_libraries_are_not_claimed():
    """A Triton launcher frame under Lightning Attention's own kernels, and a custom op namespace none of the seven registers,
    are that library's failures: explain claims nothing of the seven there."""
    lightning = ("from lightning_attn.ops import lightning_attn_func\n\no = lightning_attn_func(q, k, v, s)\no.sum().backward()\n\n"
                 "File <string>:42, in _fwd_kernel(Q, K, V, Out, S, b, h, n, d, e, BLOCK, grid, num_warps, num_stages, extern_libs, stream, warmup, device, device_type)")
    custom = tb(("/root/.cache/huggingface/modules/transformers_modules/MyTTS/modeling_tts.py", 120, "forward", "out = self.flash_attn_func(q, k, v)"),
                ("/root/.cache/huggingface/modules/transformers_modules/MyTTS/modeling_tts.py", 77, "flash_attn_func", "return torch.ops.MyKernels.attn_fwd(q, k, v)"),
                ("/env/lib/python3.11/site-packages/torch/_ops.py", 1225, "__getattr__", "raise AttributeError("),
                error="AttributeError: '_OpNamespace' 'MyKernels' object has no attribute 'attn_fwd'")
    title = "The FlashAttention path depends on torch.ops.MyKernels.attn_fwd, which is missing, so inference fails"
    assert first(lightning) == (None, None), ids(lightning)
    assert first(title) == (None, None), ids(title)
    assert first(custom) == (None, None), ids(custom)
    # flash-attn's own op namespace stays flash-attn's
    own = "AttributeError: '_OpNamespace' 'flash_attn' object has no attribute '_flash_attn_forward'"
    assert first(own)[1] == "fa2", first(own)


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "attn.import-guard": ("(?![\\w.(])", "(?:selected|chosen|requested"),
    "xformers.unsupported-inputs": "tritonflashatt",
    "fa2.api-renamed": "|renamed|",
    "attn.onnx-export-unsupported": "未対応",
    "fa2.missing": ("setup\\.(?:sh|py|cfg)", "bug[ \\t-]?|hot"),
    "xformers.not-installed": ("setup\\.(?:sh|py|cfg)", "bug[ \\t-]?|hot"),
    "sage.not-installed": ("setup\\.(?:sh|py|cfg)", "bug[ \\t-]?|hot"),
    "app.fallback-attention-broken": ("muted", "enable_xformers_memory_efficient_attention|use_xformers"),
    "import.dll-load-failed": "entry[ \\t]+point",
    "xformers.no-cuda": "(?:run|infer|work|execute|load)",
}


def test_round197m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
