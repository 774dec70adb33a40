"""Variants for helper ex35b (session 35, issue 23): a text that names several backends is about the one that failed.

Every case was written by hand (2026-12-02) in other apps, paths, versions, GPUs and wordings than any fixture, other languages
where prose carries the rule; main's explain read each positive with another backend (or nothing). The positives name what explain
must report first (entry, backend; entry None: any entry); the near misses are the same shapes where the other backend is the one
that fails, and must keep it. No pattern written here matches an unrelated log of any training round (measure-only sets are
never read).

Mechanisms (where: rule):
  installed   attribution/sentences.py _installed_removed: a clause or a parenthesised aside that only says a backend is
              installed ("flash-attn is installed, but xformers raises ...", "(I also have xformers and flash-attn installed)")
              lists what is there, as a package list does; not an install said as the cause or time, nor with a failure
  healthylist attribution/sentences.py _healthy_blanked: a list's start before a clause that says it works ("while xformers and
              sdpa are fine")
              and "ok", a measured speed ("SDPA -> 12 it/s"), "still load" as words of health
  versions    attribution/sentences.py _version_run_removed: a run of packages with versions ("flash_attn 2.7.4 + xformers 0.0.29 +
              torch 2.6: ...") is the environment, not the failing backend
  languages   attribution/sentences.py HEALTHY / UNHEALTHY / CLAUSE_BREAK: "works" and its negations in Russian, German, French,
              Spanish, Portuguese and Japanese ("С xformers всё работает, а с sageattention ...", "xformers では問題なく動くが、...")
  replacement attribution/search.py _replacement_named: a notice above the error that a backend runs in another's place ("FA3 is
              not supported on this GPU, using FlashAttention-2 instead") makes the error below the replacement's, unless the
              error's own lines name the absent one
  lowersdpa   attribution.toml (sdpa names): the lower-case `sdpa` as what a clause says fails with ("but with sdpa the loss
              becomes NaN")
  warnfirst   explain.py _failure_before_warning: a start-up warning or fallback notice about one backend ranks after an
              exception line below it that another backend raised (a warning about A is no cause of B's error)
  onlyone     attribution/sentences.py _only_one_kept: "only X fails" among several named ("I tried sdpa, xformers and
              flash_attention_2; only flash_attention_2 gives NaN")
"""

from __future__ import annotations

import re

from each_case import each
from explain_top import first, tb, training_unrelated_logs

SP = "/opt/conda/envs/gen/lib/python3.10/site-packages"

POSITIVES = [
    # installed: the clause, the aside, "I have ... installed", Chinese, Russian, a title's tag before it
    ("installed-clause", "flash-attn 2.7.4 is installed, but xformers raises `CUDA error: invalid argument` on every step",
     (None, "xformers")),
    ("installed-have", "I have flash_attn 2.6.3 installed but SDPA gives NaN on my 4070", ("attn.nan-output", "sdpa")),
    ("installed-aside", "Started ComfyUI with --use-sage-attention (xformers and flash-attn are also installed) and every image is black",
     (None, "sage")),
    ("installed-aside-list", "Running with --use-sage-attention (I also have xformers 0.0.30 and flash-attn 2.8 installed) gives grey images",
     (None, "sage")),
    ("installed-tagged", "[Bug] SageAttention installed, but xformers throws CUDA error: misaligned address", (None, "xformers")),
    ("installed-zh", "已经安装了 flash-attn 2.7，但是 xformers 报错 CUDA error: invalid argument", (None, "xformers")),
    ("installed-ru", "flash-attn установлен, но xformers падает с CUDA error: invalid argument", (None, "xformers")),
    ("installed-after", "After installing flash-attn 2.8.3, xformers crashes with CUDA error: invalid argument", (None, "xformers")),
    # healthylist: the list's start, with "while" and with a comma
    ("healthylist-while", "Why does sage attention give black frames while xformers and sdpa are fine?", (None, "sage")),
    ("healthylist-comma", "xformers, SDPA and flash-attn all work fine, but SageAttention 2.2 crashes on the 5090", (None, "sage")),
    ("healthylist-ok", "sdpa ok, xformers ok, sageattention NaN", (None, "sage")),
    ("healthylist-speed", "Tested: SDPA -> 12 it/s, xformers -> 13 it/s, SageAttention -> crash (CUDA error: illegal memory access)",
     (None, "sage")),
    ("healthylist-still", "After updating ComfyUI, xformers and flash-attn still load but sageattention throws ImportError: DLL load failed",
     (None, "sage")),
    # versions: the environment's packages and versions before the sentence
    ("versions-plus", "flash_attn 2.7.4.post1 + xformers 0.0.29.post3 + torch 2.6: SageAttention import fails with DLL load failed",
     (None, "sage")),
    ("installed-error-first", "Error with sdpa, flash-attn and xformers all installed: RuntimeError: CUDA error: no kernel image is "
     "available for execution on the device when sage attention is selected", (None, "sage")),
    # languages
    ("languages-ru", "С xformers всё работает, а с sageattention получается чёрная картинка", (None, "sage")),
    ("languages-ja", "xformers では問題なく動くが、sageattention だと黒い画像になる", (None, "sage")),
    ("languages-de", "Mit xformers funktioniert alles, aber mit SageAttention ist jedes Bild voller NaN", (None, "sage")),
    ("languages-es", "Con xformers funciona, pero con SageAttention la imagen sale negra", (None, "sage")),
    # replacement: FA3 -> FA2 under FA2's message, FA2 -> xformers under a bare CUDA fault
    ("replacement-fa3-fa2", "FlashAttention-3 is not supported on this GPU, using FlashAttention-2 instead.\n"
     "RuntimeError: FlashAttention only supports Ampere GPUs or newer.", (None, "fa2")),
    ("replacement-traceback", "[WARN] FA3 not available on sm_86, using flash-attn 2 instead\n"
     + tb(("/srv/infer/model.py", 88, "forward", "out = self.attn(q, k, v)"),
          error="RuntimeError: CUDA error: an illegal memory access was encountered"), ("cuda.kernel-fault", "fa2")),
    ("replacement-fault", "Flash Attention 2 is not available, using xformers instead.\nRuntimeError: CUDA error: misaligned address",
     ("cuda.kernel-fault", "xformers")),
    ("replacement-comma", "[INFO] Sage attention not available, using flash attention 2\n[INFO] Loading model...\n"
     "RuntimeError: CUDA error: no kernel image is available for execution on the device", (None, "fa2")),
    # lowersdpa
    ("lowersdpa-nan", "flash_attention_2 works fine, but with sdpa the loss becomes NaN after 200 steps", ("attn.nan-output", "sdpa")),
    ("lowersdpa-crash", "eager works, but when using sdpa it crashes with CUDA error: misaligned address", (None, "sdpa")),
    ("lowersdpa-zh", "flash_attention_2 正常，用 sdpa 就报错 CUDA error: misaligned address", (None, "sdpa")),
    # warnfirst: another backend's start-up warning above a traceback that ends in this backend's error
    ("warnfirst-xformers", "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.5.1+cu121 with CUDA 1201 (you have 2.6.0+cu124)\n"
     + tb(("/srv/app/run.py", 10, "main", "from flash_attn import flash_attn_func"),
          (f"{SP}/flash_attn/flash_attn_interface.py", 10, "<module>", "import flash_attn_2_cuda as flash_attn_cuda"),
          error="ImportError: flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationE"),
     ("import.undefined-symbol", "fa2")),
    ("warnfirst-notice", "[2025-03-01 10:00:01][modeling_phi3][WARNING] - `flash-attention` package not found, consider installing for "
     "better performance: No module named 'flash_attn'.\n"
     + tb((f"{SP}/transformers/integrations/sdpa_attention.py", 96, "sdpa_attention_forward",
           "attn_output = torch.nn.functional.scaled_dot_product_attention("),
          error="RuntimeError: The expanded size of the tensor (8192) must match the existing size (4096) at non-singleton dimension 3."),
     (None, "sdpa")),
    ("warnfirst-fallback", "xformers is not available, falling back to SDPA\nflash_attn not available, falling back to SDPA\n"
     + tb(("/srv/app/attn.py", 40, "forward", "x = F.scaled_dot_product_attention(q, k, v, attn_mask=m)"),
          error="RuntimeError: The size of tensor a (77) must match the size of tensor b (4096) at non-singleton dimension 3"),
     ("sdpa.mask-size-mismatch", "sdpa")),
    # onlyone
    ("onlyone-tried", "I tried sdpa, xformers and flash_attention_2; only flash_attention_2 gives NaN", ("attn.nan-output", "fa2")),
    ("onlyone-zh", "试了 xformers、sdpa 和 flash_attention_2，只有 flash_attention_2 出现 NaN", (None, "fa2")),
]

# The same shapes where the other backend is the one that fails, or the mechanism must not apply: (text, backend it must keep)
NEAR_MISSES = [
    # installed: the installed backend fails itself; an install as the cause or the time; a selection passing it over
    ("installed-fails", "flash-attn is installed but fails to import: undefined symbol: _ZN3c104cuda9SetDeviceEi", "fa2"),
    ("installed-alone", "xformers is installed, flash-attn fails to import with an undefined symbol", "fa2"),
    ("installed-it", "flash-attn 2.8.3 installed, but it crashes with CUDA error: invalid argument on the first step", "fa2"),
    ("installed-selection", "SageAttention is installed but ComfyUI still uses xformers attention", "sage"),
    # versions: a version run with nothing else named
    ("versions-alone", "flash-attn 2.8.3 + torch 2.7.1: import fails with undefined symbol", "fa2"),
    # healthylist: an "OK" that opens a sentence; a measured speed said slow
    ("healthylist-ok-opening", "OK, so xformers crashes with CUDA error: invalid argument while flash-attn is fine", "xformers"),
    # healthylist: a clause that says its own failure ends the list
    ("healthylist-own", "FA2 crashes, FA3 and SDPA are fine", "fa2"),
    # languages: the negation
    ("languages-ru-not", "С sageattention не работает, а с xformers чёрная картинка", "sage"),
    # replacement: the error names the absent backend; the replacement's notice is the error's own line
    ("replacement-own", "FA3 not supported on sm_86, using flash-attn 2 instead\n"
     "ImportError: cannot import name 'flash_attn_func' from 'flash_attn_interface'", "fa3"),
    ("replacement-prose", "FlashAttention failed on my T4 so I fell back to xformers.\n"
     "RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "fa2"),
    ("replacement-notice", "Warning: flash_attn is not available. Falling back to xformers. Generation is 3x slower.", "fa2"),
    # lowersdpa: said to work
    ("lowersdpa-works", "with sdpa it is fine, but flash_attention_2 gives NaN loss", "fa2"),
    # warnfirst: the same backend's warning and error (the warning may be its cause); a warning over a bare error line
    ("warnfirst-same", "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.5.1+cu121 with CUDA 1201 (you have 2.6.0+cu124)\n"
     + tb((f"{SP}/xformers/ops/fmha/__init__.py", 306, "memory_efficient_attention", "return _memory_efficient_attention("),
          error="NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:"), "xformers"),
    ("warnfirst-fallback-own", "xformers is not available, falling back to SDPA\n"
     + tb((f"{SP}/xformers/ops/fmha/__init__.py", 306, "memory_efficient_attention", "return _memory_efficient_attention("),
          error="NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:"), "xformers"),
    # onlyone: "only" as a limit
    ("onlyone-limit", "xformers is fine; FlashAttention only supports Ampere GPUs or newer, my card is a T4", "fa2"),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert (entry is None or got[0] == entry) and got[1] == backend, got


def _near_miss(text, backend):
    got = first(text)
    assert got[1] == backend, got


def test_ex35b_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_ex35b_near_misses():
    each(((name, (text, backend)) for name, text, backend in NEAR_MISSES), _near_miss)


def test_ex35b_patterns_match_no_unrelated_log():
    """The lower-case `sdpa` name written here (attribution.toml, marked ex35b) matches no unrelated log of a training round."""
    from attn_doctor.knowledge import toml_data

    lib = next(x for x in toml_data("attribution.toml")["library"] if x["backend"] == "sdpa")
    pats = [p for p in lib["names"] if "用|使用|换成" in p]
    assert len(pats) == 1
    rx = re.compile(pats[0], re.IGNORECASE | re.MULTILINE)
    logs = training_unrelated_logs()
    assert len(logs) >= 100
    assert not [p.name for p, body in logs if rx.search(body)]
