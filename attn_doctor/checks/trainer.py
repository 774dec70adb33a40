"""Trainer configs (`check --config`): what the user's trainer setup (SimpleTuner, musubi-tuner / blissful-tuner,
diffusers, ai-toolkit, sd-scripts / kohya_ss GUI, diffusion-pipe, OneTrainer, axolotl, LLaMA-Factory, transformers / TRL,
torchtune, LitGPT, ms-swift, Unsloth) asks of the attention stack, checked against what those trainers do with it.

Everything here reads ctx.config (configs/ made it from the file; a saved report keeps it), so `check
--from` re-evaluates it. Without --config, a DIFFUSERS_ATTN_BACKEND in the environment is checked the same way.
"""

from __future__ import annotations

import shlex

from ..backends import FLASH_LIB, SPECS, cap_str
from ..facts import view
from ..smoke.plan import gpu_dtype as smoke_gpu_dtype
from ..knowledge import finding
from . import Context, check


def _config(facts: dict, ctx: Context) -> dict | None:
    if ctx.config:
        return ctx.config
    value = view.env(facts).get("DIFFUSERS_ATTN_BACKEND")
    if value and value != "native":
        from ..configs import environment_config

        return environment_config(value)
    return None


def _kernels_version(facts: dict) -> str | None:
    return view.dist_version(facts, "kernels")


def off_here(facts: dict, cfg: dict | None) -> list[dict]:
    """The config's attention entries its trainer itself turns off on these GPUs: an entry's `gate` names the compute
    capability and torch it needs (torchtune's packed FlexAttention: sm75 and torch 2.5). Nothing when no GPU is seen:
    the config may be for another machine."""
    caps = [tuple(g["capability"]) for g in view.gpus(facts) if g.get("capability")]
    have = view.version(view.torch(facts)["version"])
    out = []
    for a in (cfg or {}).get("attention") or []:
        gate = a.get("gate")
        if not gate or not caps:
            continue
        if all(c < tuple(gate["capability"]) for c in caps) or (have is not None and have < view.version(gate["torch"])):
            out.append(a)
    return out


def gate_required(facts: dict, ctx: Context) -> None:
    """Drop from what the run requires a backend the config names only through entries its trainer turns off here
    (off_here), unless --require named it; the config then says so too (its `required` is what the report prints)."""
    cfg = ctx.config
    off = off_here(facts, cfg)
    if not off:
        return
    still = {a["backend"] for a in cfg.get("attention") or [] if a not in off}
    drop = {a["backend"] for a in off} - still - set(ctx.explicit)
    ctx.required = [n for n in ctx.required if n not in drop]
    ctx.config = {**cfg, "required": [n for n in cfg.get("required") or [] if n not in drop]}


@check("config")
def backend_names(facts: dict, ctx: Context):
    """Names the trainer does not know, Hub kernels, and backends attn-doctor does not check."""
    cfg = _config(facts, ctx)
    if not cfg:
        return
    trainer = cfg.get("trainer")
    for a in cfg.get("attention") or []:
        p = dict(name=a["name"], setting=a["setting"])
        if not a["known"]:
            if trainer == "simpletuner":
                yield finding("config.simpletuner-unknown-backend", fix=a.get("fix"), **p)
            elif trainer == "musubi":
                yield finding("config.musubi-unknown-flag" if cfg.get("format") == "cmdline" else
                              "config.musubi-unknown-key", fix=a.get("fix"), **p)
            elif trainer in UNKNOWN_IDS:
                yield finding(UNKNOWN_IDS[trainer], fix=a.get("fix"), suggestion=a.get("suggestion") or "", **p)
            else:
                yield finding("config.diffusers-unknown-backend", fix=a.get("fix"), **p)
        elif a["kind"] == "hub":
            installed = _kernels_version(facts)
            have = view.version(installed)
            kmin = a.get("kernels_min")
            loader = "diffusers" if a.get("via_diffusers") else "transformers"
            req = f">={kmin}" if kmin else ""
            if facts.get("packages") and (have is None or (kmin and have < view.version(kmin))):
                yield finding("config.hub-kernels-missing", repo=a["hub_repo"], kernels_req=req, loader=loader,
                              kernels_version=installed or "none", **p)
            else:
                yield finding("config.hub-kernel", repo=a["hub_repo"], kernels_req=req, loader=loader, **p)
        elif a["kind"] == "other":
            yield finding("config.backend-not-checked", fix=(cfg.get("fixes") or {}).get("use_default"), **p)
        elif a["kind"] == "conditional":
            yield finding("config.conditional-backend", possible=a["backend"], **p)
    launches = cfg.get("launches") or {}
    if launches.get("differ"):
        # a launch line inside a `for` loop whose runs ask for different things (configs._loop_launches)
        shown = {_LAUNCH_FIELDS.get(k, k): [" + ".join(v) or "none" if isinstance(v, list) else str(v) for v in vals]
                 for k, vals in launches["differ"].items()}
        yield finding("config.launches-differ", name=cfg.get("trainer_title") or trainer, count=launches["count"],
                      loop=launches.get("loop") or "for", fields=" and ".join(shown),
                      runs="; ".join((f"{k} " if len(shown) > 1 else "") + " / ".join(v) for k, v in shown.items()),
                      first=" ".join(f"{k}={v}" for k, v in (launches.get("values") or [{}])[0].items()))
    if cfg.get("at_launch"):
        # the script loads its settings from a file only its command line names (configs.references.note_at_launch)
        named = " / ".join(f"`{x}`" for x in cfg["at_launch"])
        yield finding("config.settings-at-launch", name=cfg.get("trainer_title") or trainer, named=named)


# the words a finding names configs._loop_launches' fields by
_LAUNCH_FIELDS = {"required": "required backends", "compile_mode": "compile"}


@check("config")
def trainer_rules(facts: dict, ctx: Context):
    """What each trainer does with the backend it was given: training, compile, masks, split attention."""
    cfg = _config(facts, ctx)
    if not cfg:
        return
    trainer, fixes = cfg.get("trainer"), cfg.get("fixes") or {}
    # a flag the launch script adds only under a condition it does not settle is possible, not selected
    attn = [a for a in cfg.get("attention") or [] if a["known"] and a["kind"] != "conditional"]
    batch = cfg.get("batch_size")
    comp = cfg.get("compile") or {}
    mode = comp.get("mode")
    if comp.get("enabled") and isinstance(mode, str) and mode not in TORCH_COMPILE_MODES:
        yield finding("config.compile-mode-unknown", mode=mode, setting=comp.get("setting") or "compile_mode",
                      trainer=cfg.get("trainer_title"), fix=fixes.get("compile_mode") or "compile_mode: default")
    for a in attn:
        if a["backend"] == "flex" and a["via_diffusers"] and not comp.get("enabled") and not cfg.get("unet"):
            known = comp.get("enabled") is not None
            state = f"{comp.get('setting')} here" if known else "this file does not say"
            yield finding("config.flex-uncompiled", setting=a["setting"], compile_state=state, fix=fixes.get("compile"),
                          severity=None if known else "info")
        if a["masks"] == "refused" and batch and batch > 1 and a["via_diffusers"] and not cfg.get("unet"):
            from ..configs import diffusers_name

            yield finding("config.mask-refused", name=a["name"], setting=a["setting"], batch=batch,
                          diffusers_name=diffusers_name(cfg, a), fix=fixes.get("mask"), backend=a["backend"])
        if cfg.get("unet") and a["via_diffusers"]:
            yield finding("config.backend-no-effect", family=cfg.get("family"), setting=a["setting"],
                          fix=fixes.get("use_default"))
    dtype = cfg.get("attention_dtype")  # what a reader knows the attention's tensors are (configs/musubi.py)
    for a in attn if dtype else []:
        spec = SPECS.get(a["backend"])
        if a["kind"] == "local" and spec is not None and dtype not in spec.dtypes:
            yield finding("config.attention-dtype-unsupported", setting=a["setting"], backend=a["backend"],
                          backend_title=spec.title, dtypes=" / ".join(spec.dtypes), dtype=dtype,
                          trainer=cfg.get("trainer_title"), why=cfg.get("attention_dtype_why") or "read from the config",
                          fix=fixes.get("attention_dtype") or "# run with mixed precision bf16")
    yield from _dtype_by_gpu(facts, cfg, attn)
    yield from _dtype_by_release(facts, cfg, attn)
    for a in off_here(facts, cfg):
        g = min(view.gpus(facts), key=lambda g: tuple(g.get("capability") or (99, 0)))
        yield finding("config.backend-off-on-gpu", trainer=cfg.get("trainer_title"), name=a["name"], setting=a["setting"],
                      needs=a["gate"]["needs"], otherwise=a["gate"]["otherwise"], gpu=g.get("name") or "GPU",
                      cap=cap_str(g["capability"]), torch=view.torch(facts)["version"] or "?")
    if trainer == "simpletuner":
        yield from _simpletuner(facts, cfg, attn, fixes, batch)
    elif trainer == "musubi":
        yield from _musubi(cfg, attn, fixes)
    elif trainer == "sd-scripts":
        yield from _sd_scripts(cfg, attn, fixes)
    elif trainer == "axolotl":
        yield from _axolotl(facts, cfg, attn)
    if cfg.get("removed_flag"):
        yield finding("config.simpletuner-use-xformers-removed", setting=cfg["removed_flag"],
                      fix=fixes.get("removed_flag"))
    for e in cfg.get("swift_packing") or []:
        yield finding("config.msswift-packing-needs-flash", feature=e["feature"], attn=e["attn"], fix=fixes.get("packing"))
    for e in cfg.get("cmdline_errors") or []:
        script = e.get("script") or cfg.get("trainer_title")
        if e["kind"] == "unknown-key":
            v = e.get("value")
            shown = ("true" if v else "false") if isinstance(v, bool) else v if isinstance(v, (int, float, str)) else None
            fix = (f"{e['suggestion']}: {shown}   # instead of {e['name']}" if shown is not None else
                   f"# rename {e['name']} to {e['suggestion']}")
            yield finding("config.unknown-key", name=e["name"], trainer=script, suggestion=e["suggestion"], fix=fix)
            continue
        if e["kind"] == "ambiguous":
            yield finding("config.ambiguous-option", name=e["name"], script=script, candidates=", ".join(e["candidates"]),
                          # no candidate is pasted for the user: the first may be another device's (diffusers'
                          # --enable_npu_flash_attention beside --enable_xformers_memory_efficient_attention)
                          fix=f"# write the whole option name: one of {', '.join(e['candidates'])}")
        else:
            fix = f"{e['suggestion']}   # the nearest option {script} has" if e.get("suggestion") else \
                f"# drop {e['name']}: {script} has no such option"
            yield finding("config.unknown-option", name=e["name"], script=script, fix=fix)
    for p in cfg.get("packing") or []:
        yield finding("config.packing-contamination", trainer=cfg.get("trainer_title"), setting=p["setting"],
                      attn=p["attn"], fix=fixes.get("packing"))
    if trainer not in ("simpletuner", "musubi"):  # those two have their own wording of it
        for a in attn:
            if a["backend"] == "sage" and (cfg.get("sage_training") or trainer in ("ai-toolkit", "onetrainer")):
                yield finding("config.sage-training", trainer=cfg.get("trainer_title"), setting=a["setting"],
                              fix=fixes.get("sage") or fixes.get("use_default"))


# torch.compile's modes (torch/_inductor/__init__.py list_mode_options; "lite" is new in torch 2.13)
TORCH_COMPILE_MODES = ("default", "lite", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")
# The finding for an attention name each trainer does not know (configs/ marks it known=False).
UNKNOWN_IDS = {"sd-scripts": "config.sdscripts-unknown-option", "axolotl": "config.axolotl-unknown-attn",
               "transformers": "config.transformers-unknown-attn", "llama-factory": "config.llamafactory-unknown-attn",
               "onetrainer": "config.onetrainer-unknown-attn"}


def gpu_dtype(by_gpu: dict, cap, torch_version: str | None) -> tuple[str | None, bool]:
    """(the dtype a run whose reading has `dtype_by_gpu` computes in on a GPU of this compute capability, whether its
    bfloat16 is emulated there): smoke.plan.gpu_dtype, with whether this torch emulates bfloat16 (view.emulates_bf16)."""
    return smoke_gpu_dtype(by_gpu, cap, view.emulates_bf16(torch_version))


def _pinned(dtype: str, by_gpu: dict) -> str:
    """The setting that fixes the run's dtype, for the file the probe is in: the trainer's own spelling where the
    reading gives it (`pins`: axolotl's YAML keys), the trainer's bf16 / fp16 switches, or an Unsloth loader's dtype
    where that is all the script leaves to the GPU."""
    if dtype in (by_gpu.get("pins") or {}):
        return by_gpu["pins"][dtype]
    keys = {s.split("=", 1)[0] for s in by_gpu.get("settings") or []}
    if keys <= {"dtype", "torch_dtype"}:
        return f"dtype=torch.{dtype}"
    return {"bfloat16": "bf16=True, fp16=False", "float16": "bf16=False, fp16=True"}.get(dtype, "bf16=True, fp16=False")


def dtype_here(facts: dict, cfg: dict | None) -> list[dict] | None:
    """What a dtype the script leaves to the GPU (a reading's `dtype_by_gpu`) is on each GPU of this machine:
    [{gpu, capability, dtype, emulated}] (dtype None: the weights', not known from the file); [] where no GPU is seen
    (not resolved here); None for a reading without one."""
    by_gpu = (cfg or {}).get("dtype_by_gpu")
    if not by_gpu:
        return None
    torch_version = view.torch(facts)["version"]
    out = []
    for g in view.gpus(facts):
        if g.get("capability"):
            dtype, emulated = gpu_dtype(by_gpu, g["capability"], torch_version)
            out.append({"gpu": g.get("name") or "GPU", "capability": cap_str(g["capability"]), "dtype": dtype,
                        "emulated": emulated})
    return out


def resolve_dtype(facts: dict, ctx: Context) -> None:
    """The config then says what each GPU here runs (`dtype_here`: the report and --json print it)."""
    here = dtype_here(facts, ctx.config)
    if here is not None:
        ctx.config = {**ctx.config, "dtype_here": here}


def _dtype_refused(cfg: dict, attn: list[dict], dtype: str | None, why: str, fix):
    """config.attention-dtype-unsupported for each local backend of the config that does not take the dtype this run
    computes in (resolved here: by the GPU, by the installed release); `fix(spec)` the line that sets one it takes."""
    for a in attn if dtype else []:
        spec = SPECS.get(a["backend"])
        if a["kind"] == "local" and spec is not None and dtype not in spec.dtypes:
            yield finding("config.attention-dtype-unsupported", setting=a["setting"], backend=a["backend"],
                          backend_title=spec.title, dtypes=" / ".join(spec.dtypes), dtype=dtype,
                          trainer=cfg.get("trainer_title"), why=why, fix=fix(spec))


def _dtype_by_gpu(facts: dict, cfg: dict, attn: list[dict]):
    """A dtype the script leaves to the GPU (a reading's `dtype_by_gpu`), resolved with the GPUs of this machine: what
    each runs, whether the chosen backend takes it, and where the answer is bfloat16 by emulation."""
    by_gpu = cfg.get("dtype_by_gpu")
    if not by_gpu:
        return
    settings = ", ".join(by_gpu.get("settings") or []) or "the script's dtype"
    probes = ", ".join(by_gpu.get("probes") or [])
    other = by_gpu.get("other_gpu") or "the weights' dtype (not known from the file)"
    file = cfg.get("path") or "the script"
    here = dtype_here(facts, cfg)
    if not here:
        yield finding("config.dtype-by-gpu-unresolved", settings=settings, probes=probes, yes=by_gpu["bfloat16_gpu"],
                      other=other, fix=f"{_pinned('bfloat16', by_gpu)}   # in {file}: instead of {settings}, on a "
                      f"GPU of compute capability 8.0 or later; {_pinned('float16', by_gpu)} on an older one")
        return
    runs: dict = {}
    for g in here:
        runs.setdefault((g["dtype"], g["emulated"]), []).append(g)
    for (dtype, emulated), group in runs.items():
        where = ", ".join(f"{g['gpu']} ({g['capability']})" for g in group)
        shown = dtype or other
        yield finding("config.dtype-by-gpu", settings=settings, probes=probes, dtype=shown, gpus=where,
                      severity="info" if len(runs) == 1 else "warning")
        if emulated:
            yield finding("config.dtype-by-gpu-emulated", settings=settings, gpus=where,
                          fix=f"{_pinned('float16', by_gpu)}   # in {file}: instead of {settings}" +
                              ("" if by_gpu.get("pins") else
                               "; or ask torch.cuda.is_bf16_supported(including_emulation=False)"))
        yield from _dtype_refused(cfg, attn, dtype, f"{settings} on {where}",
                                  lambda spec: f"{_pinned('float16', by_gpu)}   # in {file}: instead of {settings}; "
                                               "float16 is what this GPU computes fast")
    if len(runs) > 1:
        yield finding("config.dtype-by-gpu-differs", settings=settings,
                      answers="; ".join(f"{d or other} on " + ", ".join(g["capability"] for g in grp)
                                        for (d, _e), grp in runs.items()),
                      fix=f"{_pinned('float16', by_gpu)}   # in {file}: one dtype on every GPU of the node "
                          "(or run on GPUs of one kind)")


def release_dtype(by_release: dict, version: str | None) -> str | None:
    """The dtype a reading's `dtype_by_release` loads its model in under this release of the package: its `before` below
    its `from`, its `after` (None: the checkpoint's own dtype, not known from the file) from it; None with no release."""
    have = view.version(version) if version else None
    if have is None:
        return None
    return by_release["before"] if have < view.version(by_release["from"]) else by_release["after"]


def _dtype_by_release(facts: dict, cfg: dict, attn: list[dict]):
    """A dtype the transformers release decides (a reading's `dtype_by_release`: the model loaded with no dtype, nothing
    autocasting, no release shown in the file), resolved with the transformers of the environment checked."""
    by_release = cfg.get("dtype_by_release")
    if not by_release:
        return
    package, since = by_release["package"], by_release["from"]
    file = cfg.get("path") or "the script"
    model = f" ({by_release['model']})" if by_release.get("model") else ""
    version = view.dist_version(facts, package)
    auto = by_release["pin"].replace("torch.float32", '"auto"').replace("float32", "auto")
    fix = (f"{by_release['pin']}   # in {file}: the float32 {package} before {since} loads, whatever is installed; "
           f"or {auto} for the checkpoint's own dtype, as {since} loads")
    if version is None or view.version(version) is None:
        yield finding("config.dtype-by-release-unresolved", setting=by_release["setting"], package=package, since=since,
                      model=model, fix=fix)
        return
    dtype = release_dtype(by_release, version)
    yield finding("config.dtype-by-release", setting=by_release["setting"], package=package, version=version,
                  model=model, dtype=dtype or "the checkpoint's own dtype (its config.json; not known from the file)")
    half = by_release["pin"].replace("torch.float32", "torch.bfloat16").replace("float32", "bfloat16")
    yield from _dtype_refused(cfg, attn, dtype, f"{by_release['setting']} under {package} {version}",
                              lambda spec: f"{half}   # in {file}: a dtype {spec.title} takes")


def _sd_scripts(cfg: dict, attn: list[dict], fixes: dict):
    if cfg.get("unet") and not attn and not cfg.get("config_file_unread") and not cfg.get("cmdline_errors"):
        # (an option argparse refuses stops the run first: config.unknown-option says so)
        yield finding("config.sdscripts-no-attention", family=cfg.get("family") or "SD 1.x/2.x/SDXL",
                      fix=fixes.get("sdpa"))


def _axolotl(facts: dict, cfg: dict, attn: list[dict]):
    """axolotl swaps FlashAttention 2/3 for FlashAttention 4 on sm90-sm110 when flash_attn.cute imports."""
    # (FLASH_LIB: the attn_implementation values for which axolotl patches transformers' flash_attn imports)
    fa4 = view.dist_version(facts, "flash-attn-4")
    names = [a["name"] for a in attn if a["name"] in FLASH_LIB]
    if not fa4 or not names:
        return
    for g in view.gpus(facts):
        cap = g.get("capability")
        if cap and cap[0] in (9, 10, 11):
            yield finding("config.axolotl-fa4-swap", name=names[0], gpu=g.get("name"), cap=cap_str(cap),
                          version=fa4, backend="cute", config=shlex.quote(cfg.get("path") or "config.yml"))
            return


def _simpletuner(facts: dict, cfg: dict, attn: list[dict], fixes: dict, batch):
    for a in attn:
        if a["backend"] == "sage":
            if cfg.get("sage_training"):
                yield finding("config.simpletuner-sage-training", usage=cfg.get("sage_usage"), fix=fixes.get("sage"))
                if batch and batch > 1:
                    yield finding("config.mask-dropped", name=a["name"], batch=batch, fix=fixes.get("sage"))
            else:
                yield finding("config.simpletuner-sage-inference", name=a["name"])
        if a["backend"] == "xformers":
            for g in view.gpus(facts):
                cap = g.get("capability")
                if cap and cap[0] >= 9:
                    yield finding("config.simpletuner-xformers-sm90", gpu=g.get("name"), cap=cap_str(cap),
                                  fix=fixes.get("use_default"))
                    break


def _musubi(cfg: dict, attn: list[dict], fixes: dict):
    source = "command line" if cfg.get("format") == "cmdline" else "TOML"
    # Kandinsky 5's nabla FlexAttention (configs/musubi.py NABLA_TASKS) runs beside the chain's backend, not instead of it
    attn = [a for a in attn if a["backend"] != "flex"]
    maybe = any(a["kind"] == "conditional" for a in cfg.get("attention") or [])
    if not attn and not cfg.get("cmdline_errors") and not cfg.get("generation"):  # argparse stops on those first
        # Sure only for a command line whose --config_file (if any) was read and that adds no backend flag under a
        # condition the script leaves to its caller: flags may come from elsewhere.
        sure = source == "command line" and not cfg.get("config_file_unread") and not maybe
        yield finding("config.musubi-no-backend", source=source, fix=fixes.get("no_backend"),
                      severity=None if sure else "warning")
    elif len(attn) > 1:
        yield finding("config.musubi-several-backends", flags=", ".join(a["setting"] for a in attn),
                      fix=fixes.get("one_backend"))
    for a in attn:
        if a["backend"] == "sage" and cfg.get("sage_training"):
            yield finding("config.musubi-sage-training", setting=a["setting"], fix=fixes.get("sage"))
    if cfg.get("split_attn_needed") and not cfg.get("split_attn"):
        yield finding("config.xformers-no-split", why=cfg["split_attn_needed"], fix=fixes.get("split_attn"))
