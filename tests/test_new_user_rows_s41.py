"""Rows of ../shared/reports/new-user-2026-12-03.md (helper nu41, session 41) fixed with a test each: a new user's
trial of the README's commands on a CPU machine. Nothing here runs torch or a child process."""

from __future__ import annotations

import bz2
import gzip
import lzma
from pathlib import Path

import pytest

from tests.each_case import each

ROOT = Path(__file__).resolve().parents[1]


# Row 3: `check --config README.md` (attn-doctor's own README, which lists the trainers it reads) was read as a
# blissful-tuner command line, with the ERROR "The command line selects no attention backend" and exit 1; so was an
# installer that clones blissful-tuner. The name alone is no command line: musubi-tuner's reader asks the same of
# "musubi" (configs/musubi.py); with a musubi-tuner command or options beside it the file is blissful-tuner's.
NOT_BLISSFUL = {
    "notes.md": "# my notes\n\nattn-doctor reads musubi-tuner and blissful-tuner configs.\n\n```bash\n"
                "pip install ./attn-doctor\nattn-doctor check --config train.toml\n```\n",
    "setup.sh": "#!/bin/sh\n# set up blissful-tuner\ngit clone https://github.com/Sarania/blissful-tuner\n"
                "cd blissful-tuner && pip install -e .\n",
    "install_blissful.txt": "Blissful-Tuner install\n$ git clone https://github.com/Sarania/blissful-tuner.git\n"
                            "$ python -m venv venv && . venv/bin/activate\n$ pip install -r requirements.txt\n",
}
BLISSFUL = {  # near misses the other way: still blissful-tuner's, with their backend
    "train.sh": "cd ~/blissful-tuner\naccelerate launch src/musubi_tuner/hv_train_network.py --dit ckpt.safetensors "
                "--sdpa --mixed_precision bf16 --dataset_config ds.toml\n",
    "train2.sh": "# blissful-tuner run\naccelerate launch hv_train_network.py --dit ckpt.safetensors --sdpa "
                 "--mixed_precision bf16\n",
    "cute.sh": "accelerate launch wan_train_network.py --task t2v-14B --dit wan.safetensors --cute "
               "--mixed_precision bf16\n",
}


def test_row_3_a_text_that_only_names_blissful_tuner_is_no_command_line(tmp_path):
    from attn_doctor import configs
    from attn_doctor.model import UsageError

    def refused(path):
        with pytest.raises(UsageError, match="not a trainer config"):
            configs.load(str(path))

    def read(path, backend):
        cfg = configs.load(str(path))
        assert cfg["trainer_title"] == "blissful-tuner", cfg["trainer_title"]
        assert [a["backend"] for a in cfg["attention"]] == [backend], cfg["attention"]

    for name, text in {**NOT_BLISSFUL, **BLISSFUL}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    each([(n, (tmp_path / n,)) for n in NOT_BLISSFUL] + [("README.md", (ROOT / "README.md",))], refused)
    each([(n, (tmp_path / n, "cute" if n == "cute.sh" else "sdpa")) for n in BLISSFUL], read)


# Row 4: `explain train.log.gz` (a rotated log kept compressed) said "no known problem matches this text (4 line(s)
# read)", exit 1: it searched the compressed bytes. gzip (one member or several, as `cat a.gz b.gz` makes), bzip2 and
# xz are read as zcat / bzcat / xzcat give them, file or stdin; a cut archive gives what it holds, and no error.
LOG = ("Building wheel for flash-attn (setup.py) ... error\n  running build_ext\n"
       "  ImportError: /home/u/venv/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
       "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n")


def test_row_4_a_compressed_log_is_read_as_its_text():
    from attn_doctor.explain import examine

    def found(data):
        r = examine(data)
        return [(m.entry.id, m.line) for m in r.found], r.lines

    plain = found(LOG.encode())
    assert plain[0] and plain[0][0] == ("import.undefined-symbol", 3), plain
    raw = LOG.encode()
    cases = {
        "gzip": gzip.compress(raw),
        "gzip, two members": gzip.compress(b"epoch 1 loss 0.5\n" * 3) + gzip.compress(raw),
        "bzip2": bz2.compress(raw),
        "xz": lzma.compress(raw),
    }

    def same(name, data):
        got = found(data)
        want = plain if name != "gzip, two members" else ([(i, n + 3) for i, n in plain[0]], plain[1] + 3)
        assert got == want, got

    each([(n, (n, d)) for n, d in cases.items()], same)
    cut = gzip.compress(raw * 200)[:400]  # a log copied while it was written: what it holds, no traceback
    assert examine(cut).lines >= 1
    # near misses: a text that merely starts with the magic letters is read as it is
    assert found(b"BZh9 is bzip2's header\n" + raw)[0] == [("import.undefined-symbol", 4)]


# Row 1: `check --python /usr/bin/python3` (Debian's own Python, marked EXTERNALLY-MANAGED: PEP 668) printed
# "fix: /usr/bin/python3 -m pip install torch", which pip refuses ("error: externally-managed-environment ... pass
# --break-system-packages"). Such a Python's install lines now make a venv from it first, whose path the user gives
# (an unset ${VENV:?...} the shell refuses, saying why), and the header says so. A venv is never externally managed.
def test_row_1_the_os_python_gets_a_venv_not_a_refused_pip(tmp_path):
    import subprocess
    import sys

    from attn_doctor.advice import aim
    from attn_doctor.facts.interpreter import query
    from attn_doctor.target import Target, of_interpreter

    info = {"python": "/usr/bin/python3", "has_pip": True, "externally_managed": True}
    t = of_interpreter(info, "--python")
    line = aim("pip install 'torch==2.13.0'   # a CUDA build", t)
    assert line.startswith('/usr/bin/python3 -m venv "${VENV:?a new venv to install into: PEP 668 marks '
                           '/usr/bin/python3 as the OS Python, and its pip refuses}" && "$VENV"/bin/python -m pip '
                           "install 'torch==2.13.0'"), line
    assert aim(line, t) == line  # aimed once: aiming again changes nothing
    assert "the OS manages it (PEP 668)" in t.describe()
    assert Target.from_dict(t.to_dict()) == t  # a saved report keeps it
    # as pasted, with no VENV chosen: the shell refuses the whole line, saying why, and runs nothing
    cmd = line.split("   # ")[0].replace("/usr/bin/python3 -m venv", f"{sys.executable} -c pass")
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=60,
                       env={"PATH": "/usr/bin:/bin"}, cwd=str(tmp_path))
    assert r.returncode != 0 and "VENV: a new venv to install into" in r.stderr, r
    # near misses: a Python that is not marked (a venv: this one) keeps its own pip
    own = query(sys.executable)
    assert own["externally_managed"] is False
    assert aim("pip install x", of_interpreter(own, "--python")).endswith(" -m pip install x")
    assert aim("pip install x", of_interpreter({**info, "externally_managed": False}, "--python")) == \
        "/usr/bin/python3 -m pip install x"
