"""Which accelerator an error text comes from, and what that changes in explain's answer (round 82, helper ex82).

The same backends run on AMD GPUs (ROCm/HIP), Intel GPUs (XPU), Ascend NPUs (torch_npu), Apple GPUs (MPS), a CPU, and on
AMD GPUs through ZLUDA (a CUDA build of torch on an AMD GPU). Most knowledge is written for NVIDIA's CUDA: a fix that
installs a `+cuNNN` wheel, points CUDA_HOME at a toolkit, sets TORCH_CUDA_ARCH_LIST or runs nvcc is no answer on those
machines, and some failures mean something else there (flash-attn asked to build on a Mac needs no nvcc: it has no build
for Apple GPUs at all). The text itself says which machine it is ("+rocm6.2", "gfx1151", "HIP error", "xpu:0",
"torch_npu", "device='mps:0'", "ZLUDA"); this module reads that evidence and, from the tables in knowledge/accelerators.toml:

- `route`: an entry read on a platform where its cause cannot be (`[[platform_route]]`) becomes the platform's entry;
- `adapt`: a fix written for CUDA becomes the platform's (`[[platform_fix]]` for one entry, else the platform's own
  `fix` in `[[platform]]` where the fix holds CUDA-only steps).

Evidence must outweigh the NVIDIA evidence in the same text (a driver, a GeForce/RTX/A100 name, a `+cuNNN` torch): a log
that names both is left as it was. A line that says what it names is missing or skipped ("torch_npu not installed, skipping
Ascend support", an app's accelerator probe on a CUDA machine) is evidence of no platform ([absent], rev24).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from . import toml_data

SOURCE = "accelerators.toml"  # (knowledge/, beside this module)
CAP = 3  # hits counted per pattern: one noisy line does not outvote the rest
CUDA_DEVICE = "cudadevice"  # the probes of torch's CUDA device words ([cuda_device]; not a platform: counted in detect)
ABSENT = "platform-absent"  # the probe of lines that say a platform is absent (tables().absent): their words are no evidence
UNLESS = "platform-unless"  # the probes of words that void an absence platform's evidence (its `unless`; review rev27)


@dataclass(frozen=True)
class Platform:
    id: str
    name: str
    patterns: tuple[re.Pattern, ...]
    fix: str
    outranks: tuple[str, ...] = ()  # platforms whose evidence this one's wins over (ZLUDA runs on an AMD GPU)
    cuda_api: bool = False  # torch.cuda is this platform's GPU (ROCm, ZLUDA): torch's CUDA device words are no evidence against it
    # a machine told by what it lacks (a CPU with no CUDA device, helper ex156): its words are absence words, so [absent] lines
    # count for it; any other platform's evidence wins over it (a Mac says "CPU" too); it routes entries but keeps their fixes
    absence: bool = False
    # and (review rev27) the words that void an absence platform's evidence: a GPU said to be on hand in the same text
    unless: tuple[re.Pattern, ...] = ()


@dataclass(frozen=True)
class Tables:
    platforms: tuple[Platform, ...]
    cuda: tuple[re.Pattern, ...]
    cuda_device: tuple[re.Pattern, ...]  # torch's words for a CUDA device it sees ([cuda_device])
    cuda_only: re.Pattern
    fixes: dict  # (entry id, platform) -> fix
    routes: tuple[dict, ...]
    absent: re.Pattern  # a line that says what it names is missing or skipped ([absent]): no evidence on that line


@lru_cache(maxsize=1)
def tables() -> Tables:
    data = toml_data(SOURCE)
    plats = tuple(Platform(p["id"], p["name"], tuple(re.compile(x) for x in p["patterns"]), p["fix"],
                           tuple(p.get("outranks", ())), p.get("cuda_api", False), p.get("absence", False),
                           tuple(re.compile(x) for x in p.get("unless", ())))
                  for p in data.get("platform", []))
    ev = data["nvidia_evidence"]
    fixes = {}
    for f in data.get("platform_fix", []):
        for plat in f["platforms"]:
            fixes[(f["entry"], plat)] = f["fix"]
    routes = tuple(dict(r, entries=tuple(r["entries"]), platforms=tuple(r["platforms"]))
                   for r in data.get("platform_route", []))
    return Tables(plats, tuple(re.compile(x) for x in ev["patterns"]),
                  tuple(re.compile(x) for x in data["cuda_device"]["patterns"]), re.compile(ev["cuda_only_fix"]), fixes, routes,
                  re.compile(data["absent"]["pattern"]))


def probes() -> tuple[tuple[str, str], ...]:
    """The evidence patterns as the matcher's probes ("platform:<id>:<n>", pattern): searched in the same single pass over
    the input as the entries (a log of any size, in constant memory); explain reads their hits with `detect`."""
    t = tables()
    out = []
    for p in t.platforms:
        out += [(f"platform:{p.id}:{i}", rx.pattern) for i, rx in enumerate(p.patterns)]
        out += [(f"{UNLESS}:{p.id}:{i}", rx.pattern) for i, rx in enumerate(p.unless)]
    out += [(f"platform:nvidia:{i}", rx.pattern) for i, rx in enumerate(t.cuda)]
    out += [(f"platform:{CUDA_DEVICE}:{i}", rx.pattern) for i, rx in enumerate(t.cuda_device)]
    return tuple(out) + ((ABSENT, t.absent.pattern),)


def detect(probed: dict[str, list]) -> str | None:
    """The platform the input comes from ("rocm", "zluda", "xpu", "npu", "mps"), from the probes' hits (name ->
    [(line, groups)]), or None: CUDA, or not said. Each pattern counts up to CAP hits; the platform with the most wins
    where it outweighs the NVIDIA evidence."""
    scores: dict[str, int] = {}
    absent = {n for n, _ in probed.get(ABSENT, ())}
    by_absence = {p.id for p in tables().platforms if p.absence}
    void = {key.split(":")[1] for key, hits in probed.items() if key.startswith(UNLESS + ":") and hits}
    for key, hits in probed.items():
        if key.startswith("platform:"):
            pid = key.split(":")[1]
            if pid not in void:
                scores[pid] = scores.get(pid, 0) + min(sum(pid in by_absence or n not in absent for n, _ in hits), CAP)
    cuda = scores.pop("nvidia", 0)
    device = scores.pop(CUDA_DEVICE, 0)
    for p in tables().platforms:  # ZLUDA is a CUDA torch on an AMD GPU: its evidence decides over the AMD words around it
        if scores.get(p.id):
            for other in p.outranks:
                scores[other] = 0
            if not p.absence:
                for other in by_absence:
                    scores[other] = 0
    best = max(scores, key=lambda k: scores[k], default=None)
    if not best or not scores[best]:
        return None
    plat = next(p for p in tables().platforms if p.id == best)
    return best if scores[best] > cuda + (0 if plat.cuda_api else device) else None


def name(platform: str | None) -> str:
    return next((p.name for p in tables().platforms if p.id == platform), "")


def route(entry_id: str, backend: str | None, platform: str | None, evidence: str = "") -> str | None:
    """The entry that says what `entry_id` means on `platform` (a [[platform_route]] row; one with `when` only where the
    entry's evidence line holds it), or None."""
    if not platform:
        return None
    for r in tables().routes:
        if platform in r["platforms"] and entry_id in r["entries"] and r.get("backend", backend) == backend:
            if r.get("when") and not re.search(r["when"], evidence or "", re.IGNORECASE):
                continue
            return r["to"]
    return None


def adapt(entry_id: str, fix: str | None, platform: str | None) -> str | None:
    """`fix` as it applies on `platform`: the entry's platform wording, else, where `fix` holds CUDA-only steps (nvcc,
    CUDA_HOME, a +cuNNN wheel, TORCH_CUDA_ARCH_LIST), the platform's own line; on CUDA (None) unchanged."""
    if not platform or not fix:
        return fix
    t = tables()
    own = t.fixes.get((entry_id, platform))
    if own:
        return own
    if any(p.id == platform and p.absence for p in t.platforms):
        return fix  # (a CPU machine: the entry's own fix, unless a [[platform_fix]] row words it for the CPU)
    if t.cuda_only.search(fix):
        return next((p.fix for p in t.platforms if p.id == platform), fix)
    return fix
