"""FlexAttention's prerequisites: torch >= 2.5, an importable Triton, and a host C compiler.

There is no kernel "build" step to check (the guide's build_flex_attention_kernels() does not
exist): the real compile check is the smoke test, which compiles and runs it.
"""

from __future__ import annotations

from ..facts import view
from ..knowledge import finding
from ..textutil import last_line as _last_line
from . import Context, check


def triton_pin(facts: dict) -> str:
    """The triton torch asks for in its own metadata (e.g. 'triton==3.6.0'), else plain 'triton'."""
    from .versions import parse_requirement  # (parsed once per string, read only: ~1 ms of every check, helper ci39a)

    d = view.stack(facts).get("torch") or {}
    for raw in d.get("requires") or []:
        r = parse_requirement(raw)
        if r is None:
            continue
        if r.name.lower() == "triton":
            return f"triton{r.specifier}"
    return "triton"


@check("flex")
def flex_prerequisites(facts: dict, ctx: Context):
    t = view.torch(facts)
    if not t["import_ok"] or not ctx.wanted("flex"):
        return
    tv = view.torch_base(facts)
    if tv and tv < view.version("2.5"):
        if ctx.relevant("flex") or "flex" in ctx.required:
            yield finding("flex.torch-too-old", backend="flex", torch=t["version"])
        return
    on_gpu = bool(view.gpus(facts)) and bool(t["cuda"] or t["hip"])
    if not (t["cuda"] or t["hip"]):
        return  # CPU torch: flex compiles C++ there, not Triton
    tri = t["probe"].get("triton") or {}
    if not tri.get("ok"):
        err = tri.get("error") or {}
        if tri.get("missing"):
            yield finding("flex.no-triton", backend="flex", torch=t["version"], pin=triton_pin(facts),
                          severity=None if on_gpu else "warning")
        else:
            yield finding("flex.triton-broken", backend="flex", torch=t["version"], pin=triton_pin(facts),
                          error=f"{err.get('type')}: {_last_line(err.get('message', ''))}")
    cc = facts.get("host_cc") or {}
    if cc.get("from") == "CC" and not cc.get("path"):
        yield finding("flex.cc-not-found", backend="flex", cc=cc.get("name"))
    elif not cc.get("path"):
        yield finding("flex.no-cc", backend="flex", severity=None if on_gpu else "warning")
