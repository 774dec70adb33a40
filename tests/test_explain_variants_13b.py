"""Variants for round 13b (issue 23, helper ex13b): the mechanisms fixtures/errors/round13b/ (the image/video UIs' and
their custom nodes' trackers: ComfyUI portable/Desktop and nodes, A1111, SD.Next, InvokeAI, Fooocus, Wan2GP,
Stability Matrix) missed on main's rules.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread:
another node, path, size, version, symbol or wording. Each positive case asserts the entry (one of a few acceptable
ids where two say the same) and the backend of the first problem that can be a failure's cause (None: no backend
of the seven); the near misses beside each mechanism assert what must NOT be claimed.

Mechanisms (knowledge file: entry):
  mha-mask   attention.toml attn.mha-mask-shape: nn.MultiheadAttention refusing a 2D/3D mask that does not fit the
             lengths it reads (a sequence-first batch handed to a batch_first module: open_clip text encoders in nodes)
  node-fwd   frameworks.toml app.node-forward-signature: a node's patched forward_orig / attention function called by
             a newer app with a keyword it does not take (attn_mask, transformer_options) or more positionals
  shadow     frameworks.toml import.shadowed-package: "No module named 'xformers.ops'; 'xformers' is not a package"
  as-node    frameworks.toml app.package-as-node: an attention library copied into ComfyUI's custom_nodes
  comfy-flag sage.toml sage.not-installed, flash_attn.toml fa2.missing: ComfyUI's "To use the
             `--use-sage-attention` / `--use-flash-attention` feature, the ... package must be installed first"
  sage-prose field.toml sage.not-installed: the app does not see the installed SageAttention; its demand retold
  a1111      xformers.toml xformers.not-installed: A1111's "No module 'xformers'. Proceeding without it." quoted as the
             problem the user reports (alone it stays frameworks.toml app.attention-libraries-absent)
  popup      versions.toml xformers.built-for-other-torch: Windows' entry-point popup for xformers\\_C.pyd retyped
             across lines; "xformers must match torch" and "torch X has no compatible xformers" in a sentence
  latest     xformers.toml xformers.replaced-torch: the newest xformers release built for (requiring) another torch
  no-op      xformers.toml xformers.no-operator: its message quoted in a title without the inputs, or a title
             that is only the operator's name
  private    flash_attn.toml fa2.api-renamed: a private flash_attn_interface helper another release or a fork lacks
  isolate    builds.toml build.isolation: "No module named 'torch'" quoted before the build's log
  launcher   triton.toml triton.launcher-build: ComfyUI's Sage fallback retold as "returned non-zero exit status N.,
             using pytorch attention instead"
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


PORTABLE = r"F:\AI\ComfyUI_windows_portable"


@pytest.mark.parametrize("text,ids,backend", [
    # mha-mask: other sizes, the 3D form, a Linux node
    ("ERROR: !!! Exception during processing !!! The shape of the 2D attn_mask is torch.Size([32, 32]), but should be (4, 4).",
     {"attn.mha-mask-shape"}, "sdpa"),
    ("  File \"/opt/ComfyUI/custom_nodes/ComfyUI-CRM/imagedream/open_clip/transformer.py\", line 211, in attention\n"
     "    return self.attn(x, x, x, need_weights=False, attn_mask=attn_mask)[0]\n"
     "RuntimeError: The shape of the 3D attn_mask is torch.Size([8, 77, 77]), but should be (8, 1, 1).",
     {"attn.mha-mask-shape"}, "sdpa"),
    # node-fwd: other nodes, other keywords, positional counts
    ("TypeError: forward_orig() got an unexpected keyword argument 'transformer_options'", {"app.node-forward-signature"}, None),
    ("!!! Exception during processing !!! forward_orig_ipa() takes from 8 to 10 positional arguments but 11 were given",
     {"app.node-forward-signature"}, None),
    ("TypeError: RegionAttn._patched_forward() got an unexpected keyword argument 'attn_mask'", {"app.node-forward-signature"}, None),
    # shadow: other packages, other submodules
    ("  File \"/home/kai/webui/modules/sd_hijack_optimizations.py\", line 22, in <module>\n    import flash_attn.flash_attn_interface\n"
     "ModuleNotFoundError: No module named 'flash_attn.flash_attn_interface'; 'flash_attn' is not a package",
     {"import.shadowed-package"}, "fa2"),
    ("ModuleNotFoundError: No module named 'xformers.ops.fmha'; 'xformers' is not a package", {"import.shadowed-package"}, "xformers"),
    # as-node: flash-attn and SageAttention copied into custom_nodes, Windows and Linux
    (f"   0.0 seconds (IMPORT FAILED): {PORTABLE}\\ComfyUI\\custom_nodes\\SageAttention-2.2.0", {"app.package-as-node"}, "sage"),
    ("Skip /srv/ComfyUI/custom_nodes/flash-attention module for custom nodes due to the lack of NODE_CLASS_MAPPINGS.",
     {"app.package-as-node"}, "fa2"),
    # comfy-flag: ComfyUI's refusal, both flags, with and without its backquotes
    ("To use the `--use-sage-attention` feature, the `sageattention` package must be installed first.\ncommand:\n"
     f"        {PORTABLE}\\python_embeded\\python.exe -m pip install sageattention", {"sage.not-installed"}, "sage"),
    ("To use the '--use-flash-attention' feature, the 'flash-attn' package must be installed first.", {"fa2.missing"}, "fa2"),
    # sage-prose: the app does not see it; its demand retold
    ("Installed SageAttention 2.2 into miniconda but SwarmUI can't detect sageattention at all", {"sage.not-installed"}, "sage"),
    ("FramePack keeps saying that I must install sage attention although pip list shows it", {"sage.not-installed"}, "sage"),
    # a1111: the notice quoted as the problem
    ("webui.bat with --xformers, the log still says No module 'xformers'. Proceeding without it.", {"xformers.not-installed"},
     "xformers"),
    ("I put xformers in the venv and keep getting:\n> No module 'xformers'. Proceeding without it.", {"xformers.not-installed"},
     "xformers"),
    # popup: retyped across lines, another symbol and path; the sentences
    ("Popup: The procedure entry point\n?index_select_out@native@at@@YAAEAVTensor@2@AEBV32@_J0AEAV32@@Z\n"
     "could not be located in the dynamic link library\nC:\\sd\\venv\\Lib\\site-packages\\xformers\\_C.pyd",
     {"xformers.built-for-other-torch"}, "xformers"),
    ("note: xformers must exactly match the installed torch, so pin both", {"xformers.built-for-other-torch"}, "xformers"),
    ("Forge now ships torch 2.9.0, which has no matching build of xformers", {"xformers.built-for-other-torch"}, "xformers"),
    # latest: the newest xformers wants another torch
    ("Careful: the newest release of xformers requires torch 2.7.0, so an unpinned install swaps torch",
     {"xformers.replaced-torch"}, "xformers"),
    # no-op: a title quoting the message without inputs, a title of the op's name
    ("No operator found for this attention when running Flux with --use-xformers", {"xformers.no-operator"}, "xformers"),
    ("[Bug]: memory_efficient_attention_forward\nI just updated and got this error", {"xformers.no-operator"}, "xformers"),
    # private: another private helper, another fork
    ("ImportError: cannot import name '_flash_attn_varlen_forward' from 'flash_attn.flash_attn_interface' "
     "(/data/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py)", {"fa2.api-renamed"}, "fa2"),
    # isolate: the error first, uv's build log after
    ("pip says: ModuleNotFoundError: No module named 'torch'\n\nBuilding wheels for collected packages: sageattention\n"
     "  Getting requirements to build wheel ... error", {"build.isolation"}, "sage"),
    # launcher: the title form, another status
    ("main.py --use-sage-attention --fast\nReturned non-zero exit status 3221225477., using pytorch attention instead",
     {"triton.launcher-build"}, "sage"),
])
def test_mechanism(text, ids, backend):
    got = _top(text)
    assert got[0] in ids and got[1] == backend, got


@pytest.mark.parametrize("text,absent", [
    # mha-mask: another shape error of attention is not this one
    ("RuntimeError: The size of tensor a (77) must match the size of tensor b (154) at non-singleton dimension 1",
     "attn.mha-mask-shape"),
    ("ValueError: Attention mask should be of size (1, 1, 77, 77), but is torch.Size([1, 1, 77, 78])", "attn.mha-mask-shape"),
    # node-fwd: a backend's own function keeps its api-mismatch entry; an unrelated forward() is not a node's patch
    ("TypeError: flash_attn_func() got an unexpected keyword argument 'window_size'", "app.node-forward-signature"),
    ("TypeError: forward() got an unexpected keyword argument 'labels'", "app.node-forward-signature"),
    # shadow: a submodule that is really missing is not a shadow
    ("ModuleNotFoundError: No module named 'xformers.ops'", "import.shadowed-package"),
    ("ModuleNotFoundError: No module named 'flash_attn.flash_attn_interface'", "import.shadowed-package"),
    # as-node: a real node that failed to import, a node named after a library
    (f"   0.3 seconds (IMPORT FAILED): {PORTABLE}\\ComfyUI\\custom_nodes\\ComfyUI-WanVideoWrapper", "app.package-as-node"),
    (f"   0.0 seconds: {PORTABLE}\\ComfyUI\\custom_nodes\\ComfyUI-SageAttention-Patch", "app.package-as-node"),
    # comfy-flag: ComfyUI saying it uses the backend is no refusal
    ("Using sage attention\nTo see the GUI go to: http://127.0.0.1:8188", "sage.not-installed"),
    ("Using Flash Attention", "fa2.missing"),
    # sage-prose: a program that sees it; an install instruction
    ("ComfyUI does detect sageattention now, thanks", "sage.not-installed"),
    ("README: you must install sage attention 2 from source for the 5090", "sage.not-installed"),
    # a1111: the notice alone at start-up is the notice, not the user's problem
    ("Launching Web UI with arguments: --medvram\nNo module 'xformers'. Proceeding without it.\nLoading weights [6ce0161689]",
     "xformers.not-installed"),
    # popup: another DLL's missing entry point is not xformers'
    ("The procedure entry point\n?foo@bar@@YAXXZ\ncould not be located in the dynamic link library\nC:\\Tools\\app\\libssl-3-x64.dll",
     "xformers.built-for-other-torch"),
    ("xformers matched torch after pinning 0.0.28.post3, all good", "xformers.built-for-other-torch"),
    # latest: the newest torch being fine with xformers is no replacement
    ("the newest xformers works with torch 2.8.0 here", "xformers.replaced-torch"),
    # no-op: xformers' own raise with its text after the colon stays the backend's message; a frame is no title
    ("NotImplementedError: No operator found for this attention: Inputs(query=tensor([1.]))", "prose.fails"),
    ("  File \"/x/xformers/ops/fmha/__init__.py\", line 301, in _memory_efficient_attention_forward\n"
     "    out, *_ = op.apply(inp, needs_gradient=False)\nRuntimeError: CUDA error: invalid argument", "xformers.no-operator"),
    # private: flash-attn-4's namespace without files is cute's
    ("ImportError: cannot import name 'flash_attn_func' from 'flash_attn.cute' (unknown location)", "fa2.api-renamed"),
    # isolate: torch missing at run time, no build in sight
    ("python app.py\nModuleNotFoundError: No module named 'torch'", "build.isolation"),
    # launcher: another program's exit status
    ("git clone returned non-zero exit status 128.", "triton.launcher-build"),
])
def test_near_miss(text, absent):
    assert absent not in _ids(text), _ids(text)


def test_notice_alone_stays_a_notice():
    # a1111: printed alone the notice is an optional library the app did not find ...
    assert _ids("No module 'xformers'. Proceeding without it.") == ["app.attention-libraries-absent"]
    # ... and quoted as what keeps happening it is xformers missing from the app's Python
    assert _top("why does it still show No module 'xformers'. Proceeding without it.") == ("xformers.not-installed", "xformers")


def test_shadow_is_not_a_missing_package():
    # shadow: the package is there; a module of its name hides it, so "install xformers" is the wrong advice
    got = _ids("ModuleNotFoundError: No module named 'xformers.ops'; 'xformers' is not a package")
    assert got[0] == "import.shadowed-package" and "xformers.not-installed" not in got[:1], got


@pytest.mark.parametrize("folder,backend", [("xformers", "xformers"), ("SageAttention-2.2.0", "sage"),
                                            ("flash-attention", "fa2")])
def test_package_as_node_fix_names_the_library_it_found(folder, backend):
    # the closing review: an xformers folder was told to install sageattention
    from attn_doctor.explain import match

    m = match(f"   0.0 seconds (IMPORT FAILED): D:\\ComfyUI_windows_portable\\ComfyUI\\custom_nodes\\{folder}")[0]
    assert m.entry.id == "app.package-as-node" and m.backend == backend
    assert f"--require {backend} " in m.fix and "pip install" not in m.fix, m.fix
