"""Smoke tests: what running each backend's kernels for real showed (facts["smoke"])."""

from __future__ import annotations

from ..backends import SPECS
from ..facts import view
from ..knowledge import finding, finding_for_match
from ..knowledge.match import cause
from ..textutil import last_line as _last_line
from . import Context, check
from .settings import compile_off, failing_cause


def _headline(e: dict) -> str:
    """An exception as one line: its type and the first line of its message (a multi-line message,
    such as xformers' list of refusing operators, puts the gist first)."""
    lines = [ln.strip() for ln in (e.get("message") or "").splitlines() if ln.strip()]
    return f"{e.get('type')}: {lines[0][:300] if lines else ''}"


def results(facts: dict):
    """(device key, backend, result) for every smoke run in the facts."""
    for key, per in ((facts.get("smoke") or {}).get("devices") or {}).items():
        for name, res in per.items():
            yield key, name, res


def failure(res: dict) -> str | None:
    """Why a backend's smoke run failed, in a few words, or None when every case passed."""
    from ..smoke import refusal_crash

    run = res.get("run") or {}
    final = res.get("final") or {}
    if refusal_crash(res):
        return None  # every kernel case passed; smoke.refusal-crashed warns of the crash
    if run.get("timed_out"):
        return f"hung in '{res.get('stuck_in')}'"
    if run.get("signal"):
        return f"crashed ({run['signal']}) in '{res.get('stuck_in')}'"
    if final.get("error"):
        e = final["error"]
        return _headline(e)
    for c in res.get("cases") or []:
        if not c.get("ok") and not c.get("skipped"):
            if c.get("error"):
                return f"{c['name']}: {_headline(c['error'])}"
            return f"{c['name']}: {'; '.join(c.get('problems') or ['failed'])}"
    if final.get("stage") != "done" and not final:
        return f"exited {run.get('returncode')} without finishing"
    return None


def _where(key: str, res: dict, facts: dict) -> str:
    if key == "cpu":
        return "the CPU"
    # A child killed by a hang or a crash never reported its GPU's name: take it from the torch probe.
    name = res.get("gpu") or next((g.get("name") for g in view.gpus(facts) if str(g.get("index")) == key), None)
    return f"GPU {key} ({name})" if name else f"GPU {key}"


def _traceback_tail(e: dict, lines: int = 25) -> str:
    """The exception's own traceback (its last lines) and headline: what --verbose shows as `seen`."""
    tb = [ln for ln in (e.get("traceback") or "").splitlines() if ln.strip()]
    body = "\n".join(tb[-lines:])
    return body if body else _headline(e)


def _failed(name, spec, e, base, case, facts, own, noise=""):
    """The finding for an exception a smoke run raised: its cause first (a cache directory it names,
    a known entry), else the exception itself, with its own traceback as the evidence."""
    from .caches import named_in  # here: the checks register in _load_all's order

    cache = named_in(facts, own)
    if cache:
        return finding("smoke.cache-dir", backend=name, case=case, error=_headline(e),
                       detail=_traceback_tail(e), **cache, **base)
    m = cause(own, noise, name)
    if m:
        return _matched(m, name, spec, _headline(e), base, case=case)
    return finding("smoke.case-error", backend=name, case=case, error=_headline(e), detail=_traceback_tail(e), **base)


@check("smoke", runs=True)
def smoke_failures(facts: dict, ctx: Context):
    for key, name, res in results(facts):
        spec = SPECS[name]
        base = dict(title=spec.title, where=_where(key, res, facts))
        run = res.get("run") or {}
        final = res.get("final") or {}
        stderr = run.get("stderr_tail") or ""
        why = failure(res)
        setting = failing_cause(facts, name) if why else None
        if setting:  # a setting known to break this backend is set: one finding, the setting its cause
            yield finding("smoke.setting", backend=name, var=setting["var"], value=setting["value"],
                          effect=setting["effect"], failure=why, detail=_last_line(stderr) or None, **base)
            continue
        if run.get("timed_out"):
            yield finding("smoke.hang", backend=name, case=res.get("stuck_in") or "start-up",
                          seconds=f"{res.get('wall_seconds', 0):.0f}", detail=_last_line(stderr), **base)
            continue
        from ..smoke import refusal_crash

        if refusal_crash(res):
            yield finding("smoke.refusal-crashed", backend=name, case=res.get("stuck_in"), signal=run["signal"], **base)
            continue
        if run.get("signal"):
            m = cause("", stderr, name)
            yield finding("smoke.crashed", backend=name, case=res.get("stuck_in") or "start-up", signal=run["signal"],
                          detail=(m.evidence if m else _last_line(stderr)), **base)
            continue
        if final.get("error"):
            e = final["error"]
            own = "\n".join([e.get("traceback", ""), _headline(e)])
            case = f"start-up ({final.get('stage')})"
            yield _failed(name, spec, e, base, case, facts, own, stderr)
            continue
        for c in res.get("cases") or []:
            if c.get("ok") or c.get("skipped"):
                continue
            if c.get("error"):
                e = c["error"]
                text = "\n".join([e.get("traceback", ""), f"{e.get('type')}: {e.get('message')}"])
                yield _failed(name, spec, e, base, c["name"], facts, text)
                continue
            problems = c.get("problems") or []
            text = "; ".join(problems)
            b = c.get("bwd") or {}
            grad = [p for p in problems if "gradient" in p or "backward" in p]
            if c.get("nonfinite") or (b and b.get("nonfinite")):
                fid = "smoke.nan"
            elif any("padding" in p or "other sequences" in p for p in problems):
                fid = "smoke.varlen-leak"
            elif len(grad) < len(problems):  # the forward is wrong: gradients follow from it
                fid = "smoke.wrong-result"
            else:
                fid = "smoke.wrong-grad"
            yield finding(fid, backend=name, case=c["name"], problem=text, **base)


def _matched(m, name, spec, error, base, case="start-up"):
    # a run that failed is an error, whatever the matched entry's usual level
    return finding_for_match(m.entry.id, "smoke.known-error", backend=name, detail=m.evidence, case=case, severity="error",
                             dist=spec.dists[0], install=spec.install, error=error, module=spec.module,
                             **base)


@check("smoke")
def sdpa_math_fallback(facts: dict, ctx: Context):
    for key, name, res in results(facts):
        if name != "sdpa" or key == "cpu":
            continue
        for c in res.get("cases") or []:
            if c.get("default") == "math" and "fp32" not in c.get("name", ""):
                yield finding("sdpa.math-fallback", backend="sdpa", case=c["name"].replace("sdpa-kernels ", ""),
                              where=_where(key, res, facts))


@check("smoke")
def inputs_changed(facts: dict, ctx: Context):
    """A backend whose call wrote into the q, k or v it was given (its output may still be right): the caller's tensor
    is not what it was, which matters wherever the caller uses it again."""
    for key, name, res in results(facts):
        hit = [c for c in res.get("cases") or [] if c.get("inputs_changed")]
        if hit:
            names = sorted({n for c in hit for n in c["inputs_changed"]})
            yield finding("smoke.inputs-changed", backend=name, title=SPECS[name].title, where=_where(key, res, facts),
                          case=hit[0]["name"], n=len(hit), inputs=", ".join(names))


@check("smoke")
def fa4_cache_hit(facts: dict, ctx: Context):
    for key, name, res in results(facts):
        cc = res.get("cache_check")
        if name != "cute" or not cc or cc.get("warm_already"):
            continue
        if cc.get("first_seconds") is not None and cc["first_seconds"] > 1.0:
            yield finding("cache.fa4-miss", backend="cute", seconds=f"{cc['first_seconds']:.1f}",
                          dir=(facts.get("env") or {}).get("FLASH_ATTENTION_CUTE_DSL_CACHE_DIR") or "the default directory")


@check("smoke")
def not_built(facts: dict, ctx: Context):
    """Cases a reduced FlashAttention build refused ("This flash attention build does not support ..."):
    not failures of what is there, but what a job with those shapes would hit."""
    for key, name, res in results(facts):
        gone = [c for c in res.get("cases") or [] if c.get("not_built")]
        if gone:
            yield finding("smoke.not-built", backend=name, title=SPECS[name].title, where=_where(key, res, facts),
                          cases=", ".join(f"'{c['name']}'" for c in gone), n=len(gone),
                          error=gone[0]["skipped"].replace("not in this build: ", "", 1))


@check("smoke")
def flex_uncompiled(facts: dict, ctx: Context):
    """Flex passed, yet torch.compile generated no graph: it ran unfused. Said here only when no
    setting explains it (a compile-off setting has its own finding, checks/settings.py)."""
    if compile_off(facts):
        return
    for key, name, res in results(facts):
        graphs = ((res.get("final") or {}).get("after") or {}).get("graphs")
        if name != "flex" or graphs != 0 or failure(res) or not any(c.get("ok") for c in res.get("cases") or []):
            continue
        yield finding("flex.not-compiled", backend="flex", where=_where(key, res, facts))
