"""Variants for helper ex93 (session 14): a program's banner or log line on an input's first lines is no report's title.

attribution.nearest gives an error that names no backend (a last resort: triage.error-names-backend) the backend of the input's
first two lines, read as a pasted report's title ("flash-attn crashes on B200" over a traceback of the user's own frames). Where a
log is pasted from its start, those lines are the program's: "Using xformers cross attention", "2025-08-01 12:00:01 | INFO |
...", "[INFO] attention backend: sdpa". Before ex93 a network error, an NCCL store timeout or a tokenizer's TypeError under such
a line was read as that backend's failure. knowledge/attribution.toml [banner] (read by knowledge/attribution/'s banner()) and attribution.toml's
[announcement] lines now keep them out of the title lines, unless the line says a failure itself.

Every case was written by hand (2026-11-29): other programs, backends, log formats, errors than any fixture. The unrelated logs
must stay unclaimed; the real failures (a title that says the backend fails, a first line that is an error, an innermost frame
in the backend's code) must keep their reading.
"""

from __future__ import annotations

import pytest

from attn_doctor.knowledge.attribution import banner
from explain_top import first, ids, tb

CONNECTION = ("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded "
              "with url: /Qwen/Qwen2.5-7B/resolve/main/config.json (Caused by NewConnectionError('<urllib3.connection."
              "HTTPSConnection object at 0x7f3a>: Failed to establish a new connection: [Errno 101] Network is unreachable'))")
STORE = ("torch.distributed.DistStoreError: wait timeout after 600000ms, keys: /default_pg/0//cuda//0")
TOKENIZER = tb(("/home/u/webui/modules/sd_hijack_clip.py", 41, "tokenize",
                "tokenized = self.wrapped.tokenizer(texts, truncation=False)['input_ids']"),
               ("/home/u/webui/venv/lib/python3.10/site-packages/transformers/tokenization_utils_base.py", 2802, "__call__",
                "encodings = self._call_one(text=text, text_pair=text_pair, **all_kwargs)"),
               error="TypeError: 'NoneType' object is not callable")
DATALOADER = tb(("/opt/app/train.py", 301, "<module>", "for batch in loader:"),
                ("/opt/conda/lib/python3.11/site-packages/torch/utils/data/dataloader.py", 1328, "_next_data",
                 "idx, data = self._get_data()"),
                error="RuntimeError: DataLoader worker (pid 4123) is killed by signal: Killed.")
JSON = "json.decoder.JSONDecodeError: Expecting ',' delimiter: line 14 column 5 (char 311)"

BANNERS = [
    "Using xformers cross attention",
    "Using flash_attention_2 for attention computation.",
    "2025-08-01 12:00:01 | INFO | Using xformers memory efficient attention",
    "[INFO] attention backend: sdpa",
    "INFO: Flash Attention 2 is available",
    "Model loaded with attn_implementation=sdpa",
    "Set attention implementation to flash_attention_2",
    "I1102 10:41:12.556281 123 model.py:88] selected attention: sageattention",
    "[2025-05-14 08:01:02,100] [INFO] [engine.py:41] Enabling FlashAttention-3 for Hopper",
    "[INFO] xformers 0.0.28.post3 detected",
]
ERRORS = [CONNECTION, STORE, TOKENIZER, DATALOADER, JSON]


@pytest.mark.parametrize("head", BANNERS)
@pytest.mark.parametrize("error", ERRORS, ids=["network", "store", "tokenizer", "dataloader", "json"])
@pytest.mark.parametrize("between", ["", "Loading checkpoint shards: 100%|##########| 4/4\nstep 0\n"], ids=["next", "below"])
def test_an_error_under_a_banner_is_not_that_backends(head, error, between):
    """A program's line on the input's first lines names what it selected; the error under it is claimed by nothing."""
    text = f"{head}\n{between}{error}\n"
    assert ids(text) == [], ids(text)


@pytest.mark.parametrize("text, want", [
    # a report's title that says the backend fails, over an error that names nothing: still that backend's
    # (over a whole traceback of two or more frames that names no attention and ends in no kernel fault -- TOKENIZER, DATALOADER
    # -- the title names the backend in passing since helper ex120: tests/test_explain_variants_ex120.py)
    ("flash-attn crashes on B200\n" + JSON, ("triage.error-names-backend", "fa2")),
    # a first line printed by the program that says a failure is still the writer's evidence
    ("2025-08-01 12:00:01 | ERROR | flash_attn failed to load its kernels\n" + JSON, ("triage.error-names-backend", "fa2")),
    ("[WARNING] xformers cannot load its C++/CUDA extensions\nValueError: shapes do not match: (2, 8, 77, 64) vs (2, 8, 64, 77)",
     ("xformers.built-for-other-torch", "xformers")),
    # the innermost frame in the backend's code decides, whatever the first line is
    ("Using pytorch attention\n" + tb(("/home/u/run.py", 10, "<module>", "out = model(x)"),
                                      ("/usr/lib/python3/site-packages/xformers/ops/fmha/__init__.py", 306, "_memory_efficient_attention_forward",
                                       "out, *_ = op.apply(inp, needs_gradient=False)"),
                                      error="RuntimeError: shape '[8192, 1, 5]' is invalid for input of size 2621440"),
     # since helper ex196 (session 34) a reshape of key/value inside xformers' fmha frame is its own entry, still xformers'
     ("xformers.unsupported-inputs", "xformers")),
])
def test_a_title_or_the_backends_own_line_still_names_it(text, want):
    assert first(text) == want, ids(text)


@pytest.mark.parametrize("line", BANNERS + [
    "2024-03-02T10:11:12.331 - Using pytorch attention in VAE",
    "DEBUG - loaded sdpa kernels",
    "[rank0]: Using FA3 varlen path",
])
def test_banner_lines(line):
    assert banner(line)


@pytest.mark.parametrize("line", [
    "flash-attn crashes on B200",
    "Not working with xformers",
    "SageAttention 2.2 build fails on Windows",
    "FlashAttention is slower than SDPA on H100",
    "Question: is flex attention supported on ROCm?",
    "Installing xformers breaks torch",
    "Use of flash attention 2 leads to NaN loss",
    # a program's line that warns about the backend it names is evidence as a title is
    "Using the `SDPA` attention implementation with ROCm may lead to performance issues",
    "[WARNING] sageattention not found, falling back to sdpa",
    # a writer's sentences and pip's lines that name a backend
    "sageattention is installed and shows in the log",
    "xformers enabled, but the generation time stays the same",
    "Using cached flash_attn-2.8.3.tar.gz (8.4 MB)",
    "Using flash attention 2 with Qwen2.5-VL gives garbage",
    "xformers 0.0.28.post3 detected",
    "2025-08-01 12:00:01 | INFO | xformers is not available for this GPU",
])
def test_titles_and_warnings_are_no_banners(line):
    assert not banner(line)
