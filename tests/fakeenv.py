"""Broken machines built in a temporary directory, and the real `attn-doctor check` run against them.

WHAT IS FAKED (everything else is real: the CLI in a subprocess, its children, proc.run, the checks):
- packages: stub packages with real-looking *.dist-info (tests/fakesite.py) first on PYTHONPATH;
- torch, where a test says so: a stub `torch` package that shadows the real one (import raises or
  segfaults; or a CUDA build whose torch.cuda.is_available() is False with torch's own warning text);
- torch's attention, where a test says so: tests/fault_site/sitecustomize.py breaks the REAL torch's
  scaled_dot_product_attention in the doctor's children (segfault, hang, NaN, wrong values, ...);
- tools: `nvidia-smi` and `nvcc` shell scripts first on PATH (hang, garbage, not executable; the
  nvidia-smi lines follow its documented `--query-gpu ... --format=csv,noheader,nounits` output).

Each run gets a private, empty TMPDIR and HOME, so a test can prove nothing was left there.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from fakesite import write_dist, write_files

ROOT = Path(__file__).resolve().parents[1]
FAULT_SITE = ROOT / "tests" / "fault_site"

# The warning torch 2.x prints when cudaGetDeviceCount fails (seen with a datacenter driver's forward
# compatibility package on a consumer GPU); the text of torch/csrc and c10/cuda/CUDAFunctions.cpp.
CUDA_INIT_WARNING = ("CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions "
                     "before calling NumCudaDevices() that might have already set an error? Error 804: forward "
                     "compatibility was attempted on non supported HW (Triggered internally at "
                     "/pytorch/c10/cuda/CUDAFunctions.cpp:109.)")

SAGE_META = ("Metadata-Version: 2.1\nName: sageattention\nVersion: 1.0.6\n"
             "Summary: Accurate and efficient 8-bit plug-and-play attention.\nRequires-Python: >=3.9\n")

# FAKE: what nvidia-smi prints for one H100 (query and banner), as a shell script.
SMI_H100 = """#!/bin/sh
case "$1" in
  --query-gpu=*) echo "0, NVIDIA H100 80GB HBM3, 9.0, 81559, 580.95.05, GPU-5c2a7d1e-0000-0000-0000-000000000000, 00000000:18:00.0" ;;
  *) echo "| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |" ;;
esac
"""


def sleeper() -> str:
    """A shell script body that never answers (exec: the sleep is the process proc.run kills)."""
    return f"#!/bin/sh\nexec {shutil.which('sleep') or '/bin/sleep'} 3600\n"


def tool(bindir: Path, name: str, body: str, executable: bool = True) -> Path:
    bindir.mkdir(parents=True, exist_ok=True)
    p = bindir / name
    p.write_text(body)
    p.chmod(0o755 if executable else 0o644)
    return p


def pid_note(var: str = "ATTN_DOCTOR_TEST_PIDFILE") -> str:
    """Python source for a stub: append this process's pid (or `pid`) to the file named by $var."""
    return (f"def _note(pid):\n    import os\n    p = os.environ.get({var!r})\n"
            "    if p:\n        open(p, 'a').write(f'{pid}\\n')\n")


SAGE_IMPORT = {
    "raise": "raise RuntimeError('SageAttention needs triton>=2.3.0: the installed triton is too old')\n",
    "hang": pid_note() + "import os, time\n_note(os.getpid())\ntime.sleep(3600)\n",
    "flood": ("import os, sys\nline = 'x' * 1023 + '\\n'\nfor _ in range(4096):\n"
              "    sys.stdout.write(line)\n    sys.stderr.write(line)\nsys.stdout.flush()\nsys.stderr.flush()\n"
              "os.write(1, b'y' * (4 << 20))\nos.write(2, b'z' * (4 << 20))\n"
              "def sageattn(*a, **k):\n    raise NotImplementedError\n"),
    "grandchild": (pid_note() + "import subprocess, sys\n"
                   "_note(subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)']).pid)\n"
                   "def sageattn(*a, **k):\n    raise NotImplementedError\n"),
}


def sage_site(site: Path, kind: str) -> Path:
    """FAKE: sageattention 1.0.6 (its real METADATA header) whose import does `kind` (SAGE_IMPORT)."""
    write_dist(site, "sageattention", "1.0.6", metadata=SAGE_META)
    write_files(site, {"sageattention/__init__.py": "from .core import sageattn\n",
                       "sageattention/core.py": SAGE_IMPORT[kind]})
    return site


def fa4_site(site: Path, record: bool = True) -> Path:
    """FAKE: flash-attn-4 4.0.0b36 (no requirements listed) whose flash_attn.cute imports fine."""
    from fakesite import FA4_RECORD

    write_dist(site, "flash-attn-4", "4.0.0b36", requires=[], record=FA4_RECORD if record else None)
    write_files(site, {"flash_attn/cute/__init__.py": "def flash_attn_func(*a, **k):\n    raise NotImplementedError\n"
                                                      "flash_attn_varlen_func = flash_attn_func\n"})
    return site


def torch_site(site: Path, kind: str) -> Path:
    """FAKE torch, shadowing the real one on PYTHONPATH:
    raise     `import torch` raises the ImportError of a wheel whose CUDA libraries are missing
    segfault  `import torch` kills the interpreter with SIGSEGV
    cuda-init a CUDA 12.8 build (with its own torch-2.11.0+cu128.dist-info) whose is_available() warns
              CUDA_INIT_WARNING and answers False; set_device raises the same text
    no-gpu    the same CUDA build, is_available() False without a word (no GPU, no driver)"""
    if kind == "raise":
        write_files(site, {"torch/__init__.py": (
            "raise ImportError('libtorch_cuda.so: cannot open shared object file: No such file or directory')\n")})
        return site
    if kind == "segfault":
        write_files(site, {"torch/__init__.py": "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n"})
        return site
    warn = CUDA_INIT_WARNING if kind == "cuda-init" else ""
    write_dist(site, "torch", "2.11.0+cu128", requires=[])
    write_files(site, {
        "torch/__init__.py": ("__version__ = '2.11.0+cu128'\nfrom . import version, cuda, nn, backends\n"
                              "class _C:\n    _GLIBCXX_USE_CXX11_ABI = True\n"),
        "torch/version.py": "__version__ = '2.11.0+cu128'\ncuda = '12.8'\nhip = None\ngit_version = 'fake'\ndebug = False\n",
        "torch/cuda.py": (f"import warnings\nMSG = {warn!r}\n"
                          "def is_available():\n    if MSG:\n        warnings.warn(MSG)\n    return False\n"
                          "def device_count():\n    return 0\n"
                          "def _fail(*a, **k):\n    raise RuntimeError(MSG or 'Found no NVIDIA driver on your system.')\n"
                          "set_device = get_device_capability = get_device_name = get_device_properties = _fail\n"
                          "synchronize = _fail\n"),
        "torch/backends.py": "",
        "torch/nn/__init__.py": "from . import functional, attention\n",
        "torch/nn/functional.py": "def scaled_dot_product_attention(*a, **k):\n    raise RuntimeError('fake torch')\n",
        "torch/nn/attention/__init__.py": "",
        "torch/nn/attention/flex_attention.py": "def flex_attention(*a, **k):\n    raise RuntimeError('fake torch')\n",
    })
    return site


def alive(pid: int) -> bool:
    """Is `pid` a live process (a zombie waiting for a parent that never reaps it counts as dead)?"""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != b"Z"


def gone(pid: int, within: float = 5.0) -> bool:
    """Has `pid` died, allowing for a SIGKILL sent to its group a moment ago to be delivered?"""
    end = time.monotonic() + within
    while alive(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def pids(path: Path) -> list[int]:
    try:
        return [int(x) for x in path.read_text().split()]
    except OSError:
        return []


def base_env() -> dict:
    """A clean environment: the caller's PATH (minus any real nvidia-smi), nothing else of theirs."""
    path = [d for d in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
            if d and not os.path.exists(os.path.join(d, "nvidia-smi"))]
    return {"PATH": os.pathsep.join(path), "NO_COLOR": "1", "LANG": "C.UTF-8"}


@dataclass
class Run:
    """One `attn-doctor check` against a fake machine. `sites` go first on PYTHONPATH, `bins` first on
    PATH; `env` values may be bytes (not UTF-8). The JSON report is written to report.json (to stdout: json_stdout)."""
    name: str
    args: list[str]
    sites: list[Path] = field(default_factory=list)
    bins: list[Path] = field(default_factory=list)
    env: dict = field(default_factory=dict)
    prefix: list[str] = field(default_factory=list)  # e.g. setpriv, to run with fewer privileges
    bound: float = 900.0  # the doctor must exit by itself before this (then it is killed): a hang is caught as surely
    #                       as at 150 s, and a loaded 2-core machine never reaches it (test_hardening's seed run took
    #                       93 s on one core beside three CPU burners, ci40a; its children alone may take EASY = 300 s)
    slow: bool = False  # waits out a timeout: started first, so the waits overlap
    json_stdout: bool = False  # `--json -` instead of report.json: the report must then be all of stdout
    # filled in by start()/finish()
    dir: Path | None = None
    proc: subprocess.Popen | None = None
    started: float = 0.0
    rc: int | None = None
    killed: bool = False
    wall: float = 0.0
    stdout: str = ""
    stderr: str = ""
    doc: dict | None = None
    leftovers: list[str] = field(default_factory=list)  # anything found in the private TMPDIR / HOME
    warm: bool = False  # started with a copy of another run's own cache folder in its HOME (run_all's seed)

    @property
    def pidfile(self) -> Path:
        return self.dir / "pids"

    def findings(self, fid: str | None = None) -> list[dict]:
        return [f for f in (self.doc or {}).get("findings", []) if fid is None or f["id"] == fid]

    def ids(self) -> set[str]:
        return {f["id"] for f in self.findings()}

    def start(self, base: Path, cache: Path | None = None) -> None:
        """`cache`: a folder copied to HOME/.cache/attn-doctor first (the doctor's own cache, as another run left it)."""
        self.dir = base / self.name
        for sub in ("tmp", "home", "out"):
            (self.dir / sub).mkdir(parents=True, exist_ok=True)
        if cache is not None and cache.is_dir():
            shutil.copytree(cache, self.dir / "home" / ".cache" / "attn-doctor")
            self.warm = True
        env = base_env()
        env.update(TMPDIR=str(self.dir / "tmp"), HOME=str(self.dir / "home"),
                   ATTN_DOCTOR_TEST_PIDFILE=str(self.pidfile),
                   PYTHONPATH=os.pathsep.join([str(s) for s in self.sites] + [str(ROOT)]))
        if self.bins:
            env["PATH"] = os.pathsep.join([str(b) for b in self.bins] + [env["PATH"]])
        env.update(self.env)
        argv = [*self.prefix, sys.executable, "-m", "attn_doctor", "check", *self.args,
                "--json", "-" if self.json_stdout else str(self.dir / "out" / "report.json")]
        self.started = time.monotonic()
        with open(self.dir / "stdout", "wb") as out, open(self.dir / "stderr", "wb") as err:
            self.proc = subprocess.Popen(argv, env=env, cwd=str(self.dir), stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=err, start_new_session=True)

    def finish(self) -> "Run":
        try:
            self.rc = self.proc.wait(timeout=max(1.0, self.bound - (time.monotonic() - self.started)))
        except subprocess.TimeoutExpired:
            self.killed = True
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.rc = self.proc.wait()
        self.wall = time.monotonic() - self.started
        self.stdout = (self.dir / "stdout").read_bytes().decode("utf-8", "replace")
        self.stderr = (self.dir / "stderr").read_bytes().decode("utf-8", "replace")
        report = self.dir / "out" / "report.json"
        if self.json_stdout:  # stdout must be exactly one JSON document: anything else leaves doc None (get() fails)
            try:
                self.doc = json.loads(self.stdout)
            except ValueError:
                self.doc = None
        elif report.exists():
            self.doc = json.loads(report.read_text())
        for sub in ("tmp", "home"):
            self.leftovers += [str(p) for p in (self.dir / sub).rglob("*") if not own_cache(p.relative_to(self.dir))]
        return self


# the one cache folder the doctor keeps of its own (knowledge/index_cache.py; README "What attn-doctor does on a broken
# machine"): index.json, the compiled patterns' re-*/ and the parsed knowledge's toml-*/ folders and their files are not
# leftovers; a half-written temporary (a dot file: .index-*, .re-*, .toml-*) or anything else there is
OWN_CACHE = {"home/.cache", "home/.cache/attn-doctor", "home/.cache/attn-doctor/index.json"}


def own_cache(rel: Path) -> bool:
    parts = rel.as_posix().split("/")
    if rel.as_posix() in OWN_CACHE:
        return True
    if parts[:3] != ["home", ".cache", "attn-doctor"] or len(parts) not in (4, 5):
        return False
    folder = parts[3]
    if not (folder.startswith("re-") or folder.startswith("toml-")):
        return False
    return len(parts) == 4 or (not parts[4].startswith(".") and parts[4].endswith((".bin", ".json")))


def run_all(runs: list[Run], base: Path, parallel: int = 6, seed: str | None = None) -> dict[str, Run]:
    """Start the runs, at most `parallel` at a time, the slow ones (hangs) first. `seed`: the name of a run started next,
    in a HOME as empty as the slow ones'; the others start once it has ended, each with a copy of the cache folder it left
    (HOME/.cache/attn-doctor: the matcher's learnt index, compiled patterns and parsed knowledge, which a cold HOME
    learns again in every run, ~5 s of CPU each on the 2-core machine; a cache only ever saves time, never changes a
    reading: knowledge/index_cache.py, tests/test_index_cache.py)."""
    seed = seed if seed in {r.name for r in runs} else None
    pending = sorted(runs, key=lambda r: (not r.slow, r.name != seed))
    active: list[Run] = []
    done: dict[str, Run] = {}
    while pending or active:
        while pending and len(active) < parallel:
            if seed is not None and seed not in done and not pending[0].slow and pending[0].name != seed:
                break  # the others wait for the seed's cache
            r = pending.pop(0)
            r.start(base, None if seed is None or seed not in done else done[seed].dir / "home" / ".cache" / "attn-doctor")
            active.append(r)
        time.sleep(0.05)
        for r in list(active):
            if r.proc.poll() is not None or time.monotonic() - r.started > r.bound:
                done[r.name] = r.finish()
                active.remove(r)
    return done


def restore_modes(base: Path) -> None:
    """Give back what tests took away (modes), so the tree can be removed."""
    for p in [base, *base.rglob("*")]:
        try:
            if p.is_dir() and not p.is_symlink():
                p.chmod(p.stat().st_mode | stat.S_IRWXU)
        except OSError:
            pass
