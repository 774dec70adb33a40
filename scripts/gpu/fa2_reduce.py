#!/usr/bin/env python3
"""Reduce an unpacked flash-attn 2.8.x sdist to a few head dims, so its build fits a short GPU hold.

flash-attn's setup.py compiles 72 kernel files (fwd, bwd and split-KV forward for head dims 32, 64, 96,
128, 192, 256, fp16 and bf16, causal and not) and has no switch for a subset. This edits two files of
the unpacked sdist, and nothing else:

- setup.py: the `sources` list keeps only the kernel files of the kept head dims (all three kinds,
  both dtypes, causal and not: flash_api.cpp's dispatch references every one of those for a kept
  head dim, so none of them can go without an undefined symbol at import);
- csrc/flash_attn/src/static_switch.h: HEADDIM_SWITCH dispatches only to the kept head dims, over the
  same ranges upstream uses (a head dim d runs on the kernel of the smallest upstream size >= d, and
  the kernels assume that size is d rounded up: a d64 input must not run on the d128 kernel), and
  any other head dim raises "This flash attention build does not support head dim N", in the words
  flash-attn's own FLASHATTENTION_DISABLE_* builds use ("This flash attention build does not
  support ...").

Each file keeps its full content (dropout, ALiBi, softcap, local windows, uneven K): a kept file
compiles exactly as in a full build, so its measured compile time stands for the full build's files.

    python3 scripts/gpu/fa2_reduce.py DIR 64,128     # DIR: the unpacked flash_attn-2.8.3.post2/
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

UPSTREAM = (32, 64, 96, 128, 192, 256)  # HEADDIM_SWITCH's sizes in 2.8.x, smallest first
KINDS = ("fwd", "bwd", "fwd_split")
SOURCE = re.compile(r'^\s*"csrc/flash_attn/src/flash_(fwd|bwd|fwd_split)_hdim(\d+)_(fp16|bf16)(_causal)?_sm80\.cu",\s*$')
SWITCH = re.compile(r"#define HEADDIM_SWITCH\(HEADDIM, \.\.\.\)\s*\\\n(?:.*\\\n)*?\s*\}\(\)\n")


def kept_files(hdims: list[int]) -> list[str]:
    """The kernel files a build of these head dims compiles, in setup.py's names."""
    return [f"csrc/flash_attn/src/flash_{k}_hdim{h}_{dt}{c}_sm80.cu"
            for k in KINDS for h in hdims for dt in ("fp16", "bf16") for c in ("", "_causal")]


def switch_macro(hdims: list[int]) -> str:
    lines = ["#define HEADDIM_SWITCH(HEADDIM, ...)"]
    body = ["  [&] {"]
    first = True
    for h in sorted(hdims):
        lower = UPSTREAM[UPSTREAM.index(h) - 1] if UPSTREAM.index(h) else 0
        cond = f"HEADDIM <= {h}" if lower == 0 else f"HEADDIM > {lower} && HEADDIM <= {h}"
        body.append(f"    {'if' if first else '} else if'} ({cond}) {{")
        body.append(f"      constexpr static int kHeadDim = {h};")
        body.append("      return __VA_ARGS__();")
        first = False
    kept = ", ".join(str(h) for h in sorted(hdims))
    body.append("    } else {")
    body.append(f'      TORCH_CHECK(false, "This flash attention build does not support head dim ", HEADDIM, '
                f'": it was built with the kernels of head dims {kept} only (a reduced build)");')
    body.append("    }")
    body.append("  }()")
    out = lines + body
    width = max(len(x) for x in out) + 1
    return "".join(x.ljust(width) + "\\\n" for x in out[:-1]) + out[-1] + "\n"


def reduce(root: Path, hdims: list[int]) -> dict:
    bad = [h for h in hdims if h not in UPSTREAM]
    if bad or not hdims:
        raise SystemExit(f"fa2_reduce: head dims must be among {UPSTREAM}, got {hdims}")
    setup = root / "setup.py"
    sw = root / "csrc" / "flash_attn" / "src" / "static_switch.h"
    text = setup.read_text()
    lines = text.splitlines(keepends=True)
    seen, kept, dropped = 0, [], 0
    out = []
    for line in lines:
        m = SOURCE.match(line)
        if m:
            seen += 1
            if int(m.group(2)) in hdims:
                kept.append(line.strip().strip('",'))
                out.append(line)
            else:
                dropped += 1
            continue
        out.append(line)
    if seen == len(kept) and dropped == 0 and "// reduced by fa2_reduce.py" in sw.read_text():
        return {"files": kept, "already": True}  # run twice: nothing left to do
    if seen != 72 or sorted(kept) != sorted(kept_files(hdims)):
        raise SystemExit(f"fa2_reduce: {setup}: expected the 72 kernel files of flash-attn 2.8.x, found {seen}; "
                         "not the sdist this script knows")
    s = sw.read_text()
    if len(SWITCH.findall(s)) != 1:
        raise SystemExit(f"fa2_reduce: {sw}: HEADDIM_SWITCH not found once")
    s = SWITCH.sub(lambda _: "// reduced by fa2_reduce.py: only these head dims are built\n" + switch_macro(hdims), s)
    setup.write_text("".join(out))
    sw.write_text(s)
    return {"files": kept, "already": False}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    dims = [int(x) for x in sys.argv[2].split(",") if x]
    r = reduce(Path(sys.argv[1]), dims)
    print(f"fa2_reduce: {len(r['files'])} kernel files + flash_api.cpp (head dims {sys.argv[2]})"
          + (" (already reduced)" if r["already"] else ""))
