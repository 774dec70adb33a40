"""Variants for helper ex132 (session 22): three leftovers of session 21, each read from the upstream source, not from a sample.
Every case was written by hand (2026-11-30) with other versions, paths, GPUs and wordings than the fixtures; each `fixed` case
fails on main at b5bd76e7 (checked), each near miss passes on both.

  wheel-fetch  install.wheel-fetch-failed: flash-attn's setup.py (CachedWheelsCommand.run) prints "Guessing wheel URL:" and
               urlretrieve()s the wheel; v2.1.0-v2.5.8 catch HTTPError only, v2.5.9 on (HTTPError, URLError), and what urllib
               raises unwrapped (a reset or a timeout while reading) escapes in every release: the install stops on the network
               error, setuptools printing "error: <message>" under the URL or a traceback through run()
               (Dao-AILab/flash-attention setup.py at v2.5.4 l.279, v2.5.9 l.285, 0251105a l.671-689; hopper/setup.py l.773;
               round 113m: Dao-AILab/flash-attention#847). Caught, it prints "Precompiled wheel not found" and builds:
               build.prebuilt-wheel-missing, unchanged
  cc-words     gpu.arch-not-in-torch: torch 2.10-2.13's capability warning ("which is of compute capability (CC) X.Y." and the
               built CCs' hardware ranges; torch 2.13 torch/cuda/__init__.py _warn_unsupported_code l.361-404,
               pytorch/pytorch#166185), with the same-major rule kept: a listed CC of the GPU's major at minor 0 (not excepting
               it) or the GPU's own CC is machine code it runs
  sage-arch    sage.arch-kernel: the family's extension missing from the build as `from . import _qattn_smNN` reports it
               (sageattention/sm89_compile.py l.1, thu-ml/SageAttention d1a57a5, woct0rdho/SageAttention e147939), and the
               smNN kernel said in words to be absent from a SageAttention build
"""

from __future__ import annotations

import pytest

from explain_top import assert_patterns_match_no_unrelated_log, first, ids

GUESS = "  Guessing wheel URL:  https://github.com/Dao-AILab/flash-attention/releases/download/{tag}/{wheel}\n"
PIP_DIR = "/tmp/pip-install-k2v9x0q1/flash-attn_5d0c3e9b1a2f4e6d8c7b9a0f1e2d3c4b"

FIXED = [
    # wheel-fetch: an old release (URLError escapes) under its guessed URL, setuptools' one line
    (GUESS.format(tag="v2.3.6", wheel="flash_attn-2.3.6+cu122torch2.1cxx11abiFALSE-cp311-cp311-linux_x86_64.whl")
     + "  error: <urlopen error [Errno -3] Temporary failure in name resolution>\n  [end of output]",
     ("install.wheel-fetch-failed", "fa2")),
    # wheel-fetch: a proxy that wants credentials (the tunnel refused)
    (GUESS.format(tag="v2.4.2", wheel="flash_attn-2.4.2+cu122torch2.2cxx11abiFALSE-cp310-cp310-linux_x86_64.whl")
     + "  error: <urlopen error Tunnel connection failed: 407 Proxy Authentication Required>",
     ("install.wheel-fetch-failed", "fa2")),
    # wheel-fetch: a new release, the connection dropped before the response (not wrapped in URLError: escapes in every release)
    (GUESS.format(tag="v2.7.4.post1", wheel="flash_attn-2.7.4.post1+cu12torch2.6cxx11abiTRUE-cp312-cp312-linux_x86_64.whl")
     + "  error: Remote end closed connection without response",
     ("install.wheel-fetch-failed", "fa2")),
    # wheel-fetch: FA3's hopper/setup.py, the same fetch, a reset mid-download
    ("  Guessing wheel URL:  https://github.com/Dao-AILab/flash-attention/releases/download/v3.0.0b1/"
     "flash_attn_3-3.0.0b1+cu128torch2.7cxx11abiTRUE-cp312-cp312-linux_x86_64.whl\n"
     "  error: [Errno 104] Connection reset by peer",
     ("install.wheel-fetch-failed", None)),
    # wheel-fetch: the traceback through run(), a read timeout (TimeoutError is no URLError)
    ("  Traceback (most recent call last):\n"
     f"    File \"{PIP_DIR}/setup.py\", line 486, in run\n"
     "      urllib.request.urlretrieve(wheel_url, wheel_filename)\n"
     "    File \"/usr/lib/python3.12/urllib/request.py\", line 270, in urlretrieve\n"
     "      block = fp.read(bs)\n"
     "              ^^^^^^^^^^^\n"
     "    File \"/usr/lib/python3.12/socket.py\", line 720, in readinto\n"
     "      return self._sock.recv_into(b)\n"
     "  TimeoutError: The read operation timed out",
     ("install.wheel-fetch-failed", "fa2")),
    # wheel-fetch: the traceback of an old release, the URLError escaping (DNS on Windows)
    ("Traceback (most recent call last):\n"
     "  File \"C:\\Users\\ana\\AppData\\Local\\Temp\\pip-install-7hq2\\flash-attn_0a1b2c3d4e5f60718293a4b5c6d7e8f9\\setup.py\", "
     "line 281, in run\n"
     "    urllib.request.urlretrieve(wheel_url, wheel_filename)\n"
     "  File \"C:\\Python311\\Lib\\urllib\\request.py\", line 1351, in do_open\n"
     "    raise URLError(err)\n"
     "urllib.error.URLError: <urlopen error [WinError 10060] A connection attempt failed>",
     ("install.wheel-fetch-failed", "fa2")),
    # cc-words: torch 2.13 on a V100 under a cu129 build (7.5 and up)
    ("/opt/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:396: UserWarning: Found GPU0 Tesla V100-SXM2-32GB which is "
     "of compute capability (CC) 7.0.\n"
     "The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n"
     "- 7.5 which supports hardware CC >=7.5,<8.0\n"
     "- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n"
     "- 9.0 which supports hardware CC >=9.0,<10.0\n"
     "- 12.0 which supports hardware CC >=12.0,<13.0\n"
     "Your installed torch==2.13.0+cu129 does not include kernels for this GPU. Reinstall the same version against a CUDA build "
     "that does, e.g.:\n"
     "  For CUDA 12.6 use pip install torch==2.13.0 --index-url https://packages.example/whl/cu126",
     ("gpu.arch-not-in-torch", None)),
    # cc-words: torch 2.11 on an RTX 5090 under a cu126 build
    ("UserWarning: Found GPU0 NVIDIA GeForce RTX 5090 which is of compute capability (CC) 12.0.\n"
     "The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n"
     "- 5.0 which supports hardware CC >=5.0,<6.0 except {5.3}\n"
     "- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n"
     "- 8.6 which supports hardware CC >=8.6,<9.0 except {8.7}\n"
     "- 9.0 which supports hardware CC >=9.0,<10.0\n"
     "Please follow the instructions at https://pytorch.org/get-started/locally/ to install a PyTorch release that supports one "
     "of these CUDA versions: 12.8, 13.0",
     ("gpu.arch-not-in-torch", None)),
    # cc-words: torch 2.12 on a Jetson Orin (8.7), which the 8.x builds except
    ("  Found GPU0 Orin which is of compute capability (CC) 8.7.\n"
     "  The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n"
     "  - 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n"
     "  - 9.0 which supports hardware CC >=9.0,<10.0",
     ("gpu.arch-not-in-torch", None)),
    # cc-words: the list line alone (an issue's title)
    ("torch 2.12 warns: The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports",
     ("gpu.arch-not-in-torch", None)),
    # sage-arch: the family's module missing, as sm90_compile's import reports it
    ("  File \"/srv/venv/lib/python3.11/site-packages/sageattention/sm90_compile.py\", line 1, in <module>\n"
     "    from . import _qattn_sm90\n"
     "ImportError: cannot import name '_qattn_sm90' from 'sageattention' "
     "(/srv/venv/lib/python3.11/site-packages/sageattention/__init__.py)",
     ("sage.arch-kernel", "sage")),
    ("ImportError: cannot import name \"_qattn_sm80\" from 'sageattention' (C:\\ComfyUI\\python_embeded\\Lib\\site-packages\\"
     "sageattention\\__init__.py)",
     ("sage.arch-kernel", "sage")),
    # sage-arch: in words
    ("The SageAttention wheel I got has no SM120 kernel, so the RTX 5080 falls back to sdpa", ("sage.arch-kernel", "sage")),
    ("sageattn on the L40S: the sm89 kernel was not compiled into this build", ("sage.arch-kernel", "sage")),
]


@pytest.mark.parametrize("text, want", FIXED)
def test_mechanism_read_in_other_versions_and_words(text, want):
    got = first(text)
    assert got[0] == want[0]
    if want[1]:
        assert got[1] == want[1]


@pytest.mark.parametrize("text, not_want", [
    # wheel-fetch: the same setup.py copied into causal-conv1d (its own wheel)
    ("  Guessing wheel URL:  https://github.com/Dao-AILab/causal-conv1d/releases/download/v1.4.0/"
     "causal_conv1d-1.4.0+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl\n"
     "  error: <urlopen error [Errno 110] Connection timed out>", "install.wheel-fetch-failed"),
    # wheel-fetch: another package's setup.py downloading over the network
    ("    File \"/tmp/pip-install-zz01/pyfoo_1b2c3d4e5f60718293a4b5c6d7e8f901/setup.py\", line 40, in run\n"
     "      urllib.request.urlretrieve(model_url, model_file)\n"
     "  urllib.error.URLError: <urlopen error [Errno 111] Connection refused>", "install.wheel-fetch-failed"),
    # wheel-fetch: caught (2.5.9 on): the source build ran, its own network error later (a submodule clone)
    (GUESS.format(tag="v2.8.3", wheel="flash_attn-2.8.3+cu12torch2.9cxx11abiTRUE-cp312-cp312-linux_x86_64.whl")
     + "  Precompiled wheel not found. Building from source...\n"
     "  fatal: unable to access 'https://github.com/NVIDIA/cutlass.git/': Failed to connect to github.com port 443: "
     "Connection timed out", "install.wheel-fetch-failed"),
    # wheel-fetch: the 404 caught and chained: the traceback goes on into the source build
    (f"  File \"{PIP_DIR}/setup.py\", line 486, in run\n"
     "    urllib.request.urlretrieve(wheel_url, wheel_filename)\n"
     "  File \"/usr/lib/python3.10/urllib/request.py\", line 643, in http_error_default\n"
     "    raise HTTPError(req.full_url, code, msg, hdrs, fp)\n"
     "urllib.error.HTTPError: HTTP Error 404: Not Found\n\n"
     "During handling of the above exception, another exception occurred:\n\n"
     "RuntimeError: Error compiling objects for extension", "install.wheel-fetch-failed"),
    ("    urllib.request.urlretrieve(wheel_url, wheel_filename)\n"
     "urllib.error.URLError: <urlopen error [Errno 101] Network is unreachable>\n\n"
     "During handling of the above exception, another exception occurred:\n", "install.wheel-fetch-failed"),
    # cc-words: the same-major rule: the GPU's major built at minor 0, not excepting it (GB10 12.1, RTX 4090 8.9, B300 10.3)
    ("UserWarning: Found GPU0 NVIDIA GB10 which is of compute capability (CC) 12.1.\n"
     "The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n"
     "- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n"
     "- 12.0 which supports hardware CC >=12.0,<13.0\n", "gpu.arch-not-in-torch"),
    ("Found GPU1 NVIDIA GeForce RTX 4090 which is of compute capability (CC) 8.9.\n"
     "The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n"
     "- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n", "gpu.arch-not-in-torch"),
    ("    Found GPU0 NVIDIA B300 which is of compute capability (CC) 10.3.\n"
     "    The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n"
     "    - 9.0 which supports hardware CC >=9.0,<10.0\n"
     "    - 10.0 which supports hardware CC >=10.0,<11.0 except {10.1}\n", "gpu.arch-not-in-torch"),
    # cc-words: the older wording's GB10 stays the false positive it was (session 21)
    ("UserWarning: \n    Found GPU0 NVIDIA GB10 which is of cuda capability 12.1.\n"
     "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (8.0) - (12.0)\n",
     "gpu.arch-not-in-torch"),
    # sage-arch: another backend's kernel in words, the package's own API names
    ("my flash-attn build has no sm89 kernel", "sage.arch-kernel"),
    ("ImportError: cannot import name 'sageattn_varlen' from 'sageattention' (/venv/lib/python3.10/site-packages/sageattention/"
     "__init__.py)", "sage.arch-kernel"),
    ("sageattention is fast here: the sm89 kernel runs at 480 TFLOPS", "sage.arch-kernel"),
])
def test_near_misses_do_not_read_the_mechanism(text, not_want):
    assert not_want not in ids(text)[:1]


def test_caught_fetch_stays_the_note():
    """A fetch caught and built from source (2.5.9 on) is still build.prebuilt-wheel-missing, and not the stopped install."""
    text = (GUESS.format(tag="v2.8.3", wheel="flash_attn-2.8.3+cu12torch2.10cxx11abiTRUE-cp313-cp313-linux_x86_64.whl")
            + "  Precompiled wheel not found. Building from source...\n  running build_ext")
    assert ids(text) == ["build.prebuilt-wheel-missing"]


def test_new_patterns_match_no_unrelated_log():
    """The patterns written here (found by a piece of each) match none of the training rounds' unrelated logs."""
    assert_patterns_match_no_unrelated_log({
        "install.wheel-fetch-failed": ("Guessing wheel URL", "urlretrieve"),
        "gpu.arch-not-in-torch": "The following list shows the CCs",
        "sage.arch-kernel": ("cannot import name", "kern[ae]ls?"),
    })
