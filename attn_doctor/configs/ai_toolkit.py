"""ostris ai-toolkit: a YAML (or JSON) job file, `job: extension` with `config.process[0]` holding `train`,
`model`, `network`, `datasets`, `sample`.

Read from ostris/ai-toolkit 27a03a9 (2026-08-21):
- toolkit/config_modules.py TrainConfig: `xformers` (default false), `sdp` (default false), `attention_backend`
  (default "native": a diffusers AttentionBackendName), `dtype` (default "fp32"), `batch_size` (default 1);
  ModelConfig: `arch`, `compile` (default false), `compile_mode` (default "default");
- jobs/process/BaseSDTrainProcess.py: `xformers` calls enable_xformers_memory_efficient_attention() on the VAE
  and UNet/transformer; an `attention_backend` other than native is passed to set_attention_backend() of the
  VAE, the UNet/transformer and the text encoders (diffusers' dispatcher); `sdp` only enables torch's SDPA
  kernels; `compile` runs torch.compile(mode=compile_mode) on the model's blocks;
- toolkit/train_tools.py get_torch_dtype: fp32/float/float32, fp16/half/float16, bf16/bfloat16;
- its launch line `python run.py CONFIG [CONFIG ...] [-r] [-n NAME] [-l LOG]` (run.py:70-100; a bare name means
  config/NAME.yaml|.yml|.json): read through the first CONFIG when it is here and has the job layout. run.py is a
  name many projects use, so the line alone is ai-toolkit's only beside that file or an ai-toolkit path.
"""

from __future__ import annotations

import os
import re

from . import NOTHING, STRONG, Score, as_int, attention, diffusers, score_keys

TITLE = "ai-toolkit"
STRONG_KEYS = {"job", "process", "training_folder", "name_or_path", "arch", "quantize_te", "linear_alpha",
               "sample_every", "caption_ext", "attention_backend", "sdp", "performance_log_every",
               "max_step_saves_to_keep", "timestep_type", "ema_config",
               "content_or_style", "folder_path", "is_flux", "is_xl", "is_v3", "sample_start_step", "shuffle_tokens"}
# cache_latents_to_disk is sd-scripts' option name (train_network.py --cache_latents_to_disk); train_unet a word
# OneTrainer's old configs and invoke-training's use too
SHARED_KEYS = {"cache_latents_to_disk", "train_unet", "xformers", "compile", "compile_mode", "quantize", "low_vram", "caption_dropout_rate", "network",
               "save", "datasets", "sample", "noise_scheduler", "train_text_encoder", "prompts", "neg"}
COMMON_KEYS = {"dtype", "batch_size", "lr", "steps", "optimizer", "gradient_checkpointing", "device", "resolution"}
# model.arch -> family (the names configs/simpletuner.HEAD_DIMS and UNET_FAMILIES use)
ARCHS = {"flux": "flux", "flux_kontext": "flux", "flex1": "flux", "flex2": "flux", "chroma": "chroma",
         "wan21": "wan", "wan21_i2v": "wan", "wan22_14b": "wan", "wan22_5b": "wan", "wan22_14b_i2v": "wan",
         "qwen_image": "qwen_image", "qwen_image_edit": "qwen_image", "qwen_image_edit_plus": "qwen_image",
         "hidream": "hidream", "hidream_e1": "hidream", "sd3": "sd3", "sdxl": "sdxl", "sd1": "sd1x", "sd15": "sd1x",
         "sd2": "sd2x", "pixart": "pixart_sigma", "pixart_sigma": "pixart_sigma", "auraflow": "auraflow",
         "lumina2": "lumina2", "ltx2": "ltxvideo", "flux2": "flux2", "zimage": "z_image", "z_image": "z_image"}
# model.arch values whose transformer is ai-toolkit's own port calling torch's F.scaled_dot_product_attention itself,
# with no other kernel and no diffusers attention module (ostris/ai-toolkit@27a03a9, extensions_built_in/diffusion_models/):
# flux2/src/model.py:57, 527-532 (Flux2(nn.Module), attention(); flux2_model.py:57, flux2_klein_model.py:71, 83; SDPA
# since af8e9ea1, the extension's first commit), krea2/src/mmdit.py:65-76 (sdpa_kernel priority list; krea2.py:167), f_light/src/model.py
# :129 (f_light.py:35), minimax_h3/src/transformer.py:178, 359 (minimax_h3.py:170, 1267), zeta_chroma/
# zeta_chroma_transformer.py:72, 201 (zeta_chroma_model.py:41). train.attention_backend reaches a model only through
# `hasattr(unet, 'set_attention_backend')` and train.xformers through enable_xformers_memory_efficient_attention()
# (jobs/process/BaseSDTrainProcess.py:1819-1839): neither changes these blocks' attention, so SDPA runs whatever the
# flags, as sd-scripts' FLUX does (SEMANTICS-diffusion.md's convention: `sdpa`)
SDPA_ARCHS = {"flux2", "flux2_klein_4b", "flux2_klein_9b", "krea2", "f-lite", "minimax_h3", "minimax_h3_ref2va",
              "zeta_chroma"}
# every model.arch ostris/ai-toolkit has shipped (a ModelClass's `arch` in any commit up to 27a03a9: toolkit/models/,
# extensions_built_in/; toolkit/config_modules.py:623 ModelArch and its :770-821 legacy names). toolkit/util/get_model.py
# get_model_class() takes the class whose `arch` matches from every package under extensions/ and extensions_built_in/
# (their AI_TOOLKIT_MODELS), else the legacy StableDiffusion
SHIPPED_ARCHS = {"sd1", "sd2", "sd3", "sdxl", "pixart", "pixart_sigma", "auraflow", "flux", "flex1", "flex2", "lumina2",
                 "vega", "ssd", "wan21", "wan21_i2v", "cogview4", "anima", "boogu_image", "boogu_image_edit", "chroma",
                 "chroma_radiance", "ernie_image", "f-lite", "flux2", "flux2_klein_4b", "flux2_klein_9b", "flux_kontext",
                 "hidream", "hidream_e1", "hidream_o1", "ideogram4", "krea2", "ltx2", "ltx2.3", "ltx2.5", "mageflow",
                 "mageflow_edit", "minimax_h3", "minimax_h3_ref2va", "nucleus_image", "omnigen2", "prx_pixel",
                 "qwen_image", "qwen_image_edit", "qwen_image_edit_plus", "wan22_14b", "wan22_14b_i2v", "wan22_5b",
                 "zimage", "zimage_l2p", "zeta_chroma", "ace_step_15", "ace_step_15_xl"}
DTYPES = {"fp32": "float32", "float": "float32", "float32": "float32", "single": "float32", "fp16": "float16",
          "half": "float16", "float16": "float16", "bf16": "bfloat16", "bfloat16": "bfloat16"}


def _process(data: dict) -> dict:
    conf = data.get("config") if isinstance(data.get("config"), dict) else {}
    procs = [p for p in conf.get("process") or [] if isinstance(p, dict)]
    train = [p for p in procs if "train" in str(p.get("type", "")) or isinstance(p.get("train"), dict)]
    return (train or procs or [{}])[0]


def launch(cmd) -> str | None:
    """ai-toolkit's entry point: `python run.py CONFIG [CONFIG ...] [-r] [-n NAME] [-l LOG]` (run.py's argparse:
    config_file_list nargs='+', -r/--recover a flag, -n/--name and -l/--log take a value); the first CONFIG."""
    if cmd.script != "run.py":
        return None
    i = 0
    while i < len(cmd.args):
        w = cmd.args[i]
        if w in ("-n", "--name", "-l", "--log"):
            i += 2
            continue
        if not w.startswith("-"):
            return w
        i += 1
    return None


def _job(doc: dict, name: str) -> dict | None:
    """The doc of the job run.py runs for CONFIG when it is here and is ai-toolkit's (job + config layout): a bare
    name is config/NAME.json|.yaml|.yml (toolkit/config.py get_config), a name with its extension that file."""
    from . import named_config

    from .launchers import dumped_for

    tries = [name] if name.lower().endswith((".yaml", ".yml", ".json")) else \
        [os.path.join("config", name + ext) for ext in (".json", ".yaml", ".yml")]
    if len(tries) > 1 and dumped_for(doc.get("dumped") or [], name) is not None:
        # get_config opens a path that exists before it looks in config/ (toolkit/config.py): the config the launching
        # script itself dumps to that path (`yaml.safe_dump(cfg, fh)` to cfg_path, then `python run.py cfg_path`;
        # round 59) is the job, not config/{cfg_path}.yaml
        tries.insert(0, name)
    if "$PY_VALUE" in name:  # a path the wrapper computes: only a config it dumps there, never config/$PY_VALUE.yaml
        tries = [t for t in tries if t == name]
    for t in tries:
        sub = named_config(doc, t)
        if sub is not None and sub["fmt"] in ("yaml", "json") and score(sub).own:
            return sub
    return None


# toolkit/job.py:6-44 (ostris/ai-toolkit@27a03a9): get_job(config) builds the job of a config path or dict (as run.py does
# for each CONFIG) and run_job(config) runs it; a script that imports them runs ai-toolkit in its own process
JOB_CALLS = frozenset({"get_job", "run_job"})
_JOB_IMPORT = re.compile(r"^\s*(from\s+toolkit\.job\s+import\b|import\s+toolkit\.job\b)", re.MULTILINE)


def in_process_job(doc: dict) -> dict | None:
    """The doc of the job a Python script hands to toolkit.job's get_job / run_job (round 9m: a SageMaker bridge that
    builds the job dict in a function, yaml.dumps it to a path and runs get_job(path).run()): the dict given itself, or
    the one the script writes to the path it gives (launchers.python_dumped_configs), else that path's file when it is
    here. None for any other script."""
    import ast

    from . import dumped_doc, named_config
    from .launchers import dumped_for, python_dumped_configs
    from .pyscript import constants, tree

    code = doc.get("python") or ""
    if doc["fmt"] != "python" or not _JOB_IMPORT.search(code):
        return None
    t = tree(code)
    if t is None:
        return None
    dumped = python_dumped_configs(code, calls=JOB_CALLS)
    consts = constants(t)
    for n in ast.walk(t):
        if not (isinstance(n, ast.Call) and n.args and (n.func.id if isinstance(n.func, ast.Name) else n.func.attr
                                                        if isinstance(n.func, ast.Attribute) else None) in JOB_CALLS):
            continue
        given = next((d for tgt, d in dumped if isinstance(tgt, tuple) and tgt[0] == "call"), None)
        a = n.args[0]
        path = a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
        if isinstance(a, ast.Name):
            given = given or dumped_for(dumped, "$" + a.id)
            lit = consts.get(a.id)
            path = lit.value if isinstance(lit, ast.Constant) and isinstance(lit.value, str) else None
        if given is None and path:
            given = dumped_for(dumped, path)
        if given is not None:
            return dumped_doc(doc, given, "the job the script builds")
        sub = named_config(doc, path) if path else None
        if sub is not None and sub["fmt"] in ("yaml", "json"):
            return sub
    return None


def score(doc: dict) -> "Score":
    if doc["fmt"] == "python":
        job = in_process_job(doc)
        if job is not None and score(job).own:
            return Score().add("toolkit.job get_job / run_job (an ai-toolkit job the script builds)", 2 * STRONG)
    if doc["fmt"] in ("text", "python"):  # a launch script, or a notebook's `!` lines
        from . import launch_config

        cmd, name = launch_config(doc, launch)
        if cmd is None:
            return NOTHING
        # run.py is a name many projects use: ai-toolkit's when the job it names is here and is ai-toolkit's, or the
        # script runs it from an ai-toolkit checkout
        if _job(doc, name) is not None:
            return Score().add(f"run.py {os.path.basename(name)} (an ai-toolkit job beside it)", 2 * STRONG)
        if re.search(r"ai-toolkit|ai_toolkit", doc["text"], re.IGNORECASE):
            return Score().add("run.py in ai-toolkit's folder")
        return NOTHING
    if doc["fmt"] not in ("yaml", "json"):
        return NOTHING
    d = doc["data"]
    if not ("job" in d and isinstance(d.get("config"), dict)):
        # ai-toolkit's run.py hands the file to toolkit/job.py:6-14 get_job(), which refuses one without a top-level
        # `job`, and jobs/BaseJob.py:15 reads config['config'] (its processes) (ostris/ai-toolkit): without that layout (a Hydra config's
        # hydra.job, another trainer's sample_every) the keys it shares are not ai-toolkit's own evidence
        return score_keys(doc["keys"], (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    if str(d.get("job", "")).strip() in OTHER_JOBS:
        # toolkit/job.py get_job(): `generate` runs GenerateJob (images from a model, a LoRA applied), `extract`
        # ExtractJob (a LoRA taken out of two checkpoints), `mod` ModJob (weights rewritten): none of them trains, so
        # none is a training config (others.what_file says which it is)
        return score_keys(doc["keys"], (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    sc = score_keys(doc["keys"], STRONG_KEYS, SHARED_KEYS, COMMON_KEYS)
    if str(d.get("job", "")).strip() in ("extension", "train"):
        sc.add(f"job: {d['job']}")
    return sc


# ai-toolkit's jobs that do not train (ostris/ai-toolkit toolkit/job.py get_job: extension, train, extract, generate, mod)
OTHER_JOBS = {"generate": "generates images (GenerateJob)", "extract": "extracts a LoRA from two models (ExtractJob)",
              "mod": "rewrites a model's weights (ModJob)"}


def read(doc: dict) -> dict:
    job = in_process_job(doc) if doc["fmt"] == "python" else None
    if job is not None:
        return dict(read(job), format="python")
    if doc["fmt"] in ("text", "python"):  # the launch command: the job file it names, when it is here
        from . import launch_config, unknown_settings

        _cmd, name = launch_config(doc, launch)
        sub = _job(doc, name) if name else None
        if sub is None:  # the job file that says which backend, dtype and compile is not here
            return unknown_settings("ai-toolkit", TITLE, "model.compile")
        return dict(read(sub), format="cmdline")
    proc = _process(doc["data"])
    train = proc.get("train") if isinstance(proc.get("train"), dict) else {}
    model = proc.get("model") if isinstance(proc.get("model"), dict) else {}
    # "allow frontend to pass arch with a color like arch:tag" (toolkit/config_modules.py:764-768): the part before ':'
    arch = str(model.get("arch") or "").strip().lower().split(":")[0].strip()
    if not arch:
        arch = "flux" if model.get("is_flux") else "sdxl" if model.get("is_xl") else "sd3" if model.get("is_v3") else ""
    from .simpletuner import HEAD_DIMS, UNET_FAMILIES

    family = ARCHS.get(arch, arch or None)
    entries = []
    backend = train.get("attention_backend")
    if train.get("xformers") is True:
        entries.append(attention("xformers: true", "train.xformers", "xformers"))
    if backend not in (None, ""):  # unset: diffusers' default (native, PyTorch SDPA), nothing asked for
        backend = str(backend).strip()
        e = diffusers.entry(backend, f"train.attention_backend: {backend}")
        if not e["known"]:
            e["fix"] = f"attention_backend: {e['suggestion'] or 'native'}   # under train:"
        entries.append(e)
    kw = model.get("model_kwargs") if isinstance(model.get("model_kwargs"), dict) else {}
    mk = kw.get("attention_backend")
    if arch == "boogu_image" and isinstance(mk, str) and mk.strip().lower() != "native":
        # the boogu_image extension reads model.model_kwargs.attention_backend: "native" (SDPA) or "flash"
        # (flash_attn_varlen_func), anything else raises (ostris/ai-toolkit@27a03a9 extensions_built_in/diffusion_models/
        # boogu_image/boogu_image.py:183-189, src/transformer.py:690-711, src/attention_processor.py:32)
        flash = mk.strip().lower() == "flash"
        entries.append(attention(mk.strip(), f"model.model_kwargs.attention_backend: {mk.strip()}", "fa2" if flash else None,
                                 known=flash, suggestion=None if flash else "native",
                                 fix=None if flash else "attention_backend: native   # under model: model_kwargs:"))
    if arch in SDPA_ARCHS:
        # the transformer's own blocks call F.scaled_dot_product_attention whatever train.xformers / attention_backend
        # ask (SDPA_ARCHS): what runs is SDPA, the settings never reach it
        entries = [attention("scaled_dot_product_attention", f"model.arch {arch} (its transformer always calls PyTorch "
                             "SDPA)", "sdpa")]
    elif not entries and _extension_arch(arch, model):
        # an arch ai-toolkit never shipped is a model extension of the fork or user (get_model_class finds it in
        # extensions/ or a fork's extensions_built_in/). ai-toolkit's template for a new arch says to default to
        # torch's F.scaled_dot_product_attention, any other kernel opt-in through the model's own
        # set_attention_backend / model_kwargs (extensions_built_in/diffusion_models/example_model/README.md "Attention
        # backends", src/model.py:114-128): with nothing asked, that SDPA runs
        entries = [attention("scaled_dot_product_attention", f"model.arch {arch} (a model extension ai-toolkit does "
                             "not ship: its template's default, PyTorch SDPA)", "sdpa")]
    unet = family in UNET_FAMILIES
    dt = DTYPES.get(str(train.get("dtype", "fp32")).strip().lower())
    comp = model.get("compile") is True
    mode = str(model.get("compile_mode") or "default").strip()
    first = entries[-1] if entries else attention("native", "default", "sdpa")
    alt = first.get("mask_alternative")
    required = [e["backend"] for e in entries if e["known"] and e["kind"] == "local" and e["backend"]]
    if unet and first["via_diffusers"] and first["known"]:
        required = [b for b in required if b != first["backend"]] or ["sdpa"]
    return {
        "trainer": "ai-toolkit", "trainer_title": TITLE, "format": doc["fmt"],
        "family": family, "head_dims": HEAD_DIMS.get(family or ""), "mixed_precision": train.get("dtype"),
        "dtype": dt, "attention": entries, "required": list(dict.fromkeys(required)),
        "compile": {"enabled": comp, "mode": mode if comp else None, "setting": "model.compile"},
        "batch_size": as_int(train.get("batch_size", 1)), "unet": unet,
        "fixes": {"compile": "compile: true   # under model: (compile_mode: default)",
                  "use_default": "attention_backend: native   # under train:",
                  "mask": f"attention_backend: {alt}   # under train:" if alt else None,
                  "sage": "attention_backend: native   # under train:",
                  "compile_mode": "compile_mode: default   # under model: (or max-autotune)"},
    }


def _extension_arch(arch: str, model: dict) -> bool:
    """A model.arch none of ai-toolkit's models has (SHIPPED_ARCHS, or a name this reader maps, ARCHS), not a variant
    of one (a shipped family's name leads it: `flux_dev`, `sdxl_turbo`, `ltxv`, `qwen-image`) and beside no legacy
    model flag (is_flux, is_xl ...): those find no class and fall back to the legacy StableDiffusion (get_model_class),
    which loads the model the flags name, so they say nothing about an extension's attention."""
    if not arch or arch in SHIPPED_ARCHS or arch in ARCHS:
        return False
    if any(k.startswith("is_") and model.get(k) is True for k in model):
        return False
    return not any(arch.startswith(re.match(r"[a-z]+", n).group(0)) for n in SHIPPED_ARCHS | set(ARCHS))


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
