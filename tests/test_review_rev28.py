"""Review of session 28's change (helper rev28): readings the merged helpers' rules gave that a maintainer would call wrong,
each a variant written here (none is a fixture's), failing on main as merged (d4dcb982) and passing after rev28's mends;
near misses beside them keep what the rules were written for."""

from __future__ import annotations

import shutil

import pytest

ANY = object()  # (any backend)


def _read(text: str) -> list[tuple[str, str | None]]:
    from attn_doctor.explain import match

    return [(m.entry.id, m.backend) for m in match(text)]


def read_as(text: str, entry: str, backend) -> None:
    """The first reading of `text` is `entry`, with `backend` (or any: ANY)."""
    got = _read(text)
    assert got[:1] and got[0][0] == entry and backend in (ANY, got[0][1]), got


def not_read_as(text: str, entries: set, backend: str | None) -> None:
    """No reading of `text` is one of `entries` or names `backend`."""
    got = _read(text)
    assert not any(e in entries or (backend is not None and b == backend) for e, b in got), got


# configs: cfg116's conda prompt with the environment's whole path: a subshell running a script by its absolute path, its
# output redirected, is no prompt (`>` there redirects); the line stays a command
@pytest.mark.parametrize("line, kept", [
    ("(/opt/kohya/train.sh) > log.txt", "(/opt/kohya/train.sh) > log.txt"),
    ("(~/kohya/train_lora.sh) > train.log 2>&1", "(~/kohya/train_lora.sh) > train.log 2>&1"),
    ("(C:\\kohya\\train.bat) > log.txt", "(C:\\kohya\\train.bat) > log.txt"),
    # near misses: conda's prompts with the environment's path, taken off as before
    ("(H:\\conda_envs\\sd) PS H:\\repo> accelerate launch x.py", "accelerate launch x.py"),
    ("(/opt/envs-x/sd) $ accelerate launch x.py", "accelerate launch x.py"),
    ("(H:\\conda_envs\\sd) H:\\repo>accelerate launch x.py", "accelerate launch x.py"),
])
def test_a_subshell_by_path_before_a_redirection_is_no_prompt(line, kept):
    from attn_doctor.configs import without_prompts

    assert without_prompts(line) == kept


# explain: ex161's [limit_as_reason]. A limit given as the reason for a choice is context only where another failure is
# reported after it: not where the words after it deny one ("without errors", "no crash"), nor where the failure after it is
# the ruled-out backend's own (the limit said again: "with flash_attention_2 it fails"); the limit is then the report. And
# with nothing reported after it, in the words ex161 reads beside English, it is read as before ex161 (ex161 cleared the
# backend there and the catch-all that read the line was dropped as shadowed).
@pytest.mark.parametrize("text", [
    "Our V100s cannot run flash-attn 2, so we use sdpa. It works without errors but is slow; any plan for Volta support?\n",
    "My T4 doesn't support FlashAttention 2, so I use sdpa for now. No crash, no NaN, just slower. Please add Turing support.\n",
    "My RTX 2080 can't run FlashAttention 2, so I switched to sdpa. With flash_attention_2 it fails right away with an error "
    "about the GPU.\n",
    "V100不支持flash-attn 2，所以改用sdpa。用flash_attention_2的话直接报错。\n",
    "Наши V100 не поддерживают flash-attn 2, поэтому мы используем sdpa. С flash_attention_2 сразу ошибка.\n",
    "Наши V100 не поддерживают flash-attn 2, поэтому мы используем sdpa.\n",
    "V100ではFlashAttention 2が使えないので、SDPAを使っています。\n",
    "Nuestras V100 no soportan flash-attn 2, así que usamos sdpa.\n",
])
def test_where_the_limit_is_the_report_it_is_read(text):
    read_as(text, "backend.unsupported-gpu", ANY)


# near misses: another failure after the denied one, or another program's failure, is the report (ex161's rule holds)
@pytest.mark.parametrize("text", [
    "Our V100s cannot run flash-attn 2, so we use sdpa. No errors at load, but training crashes at step 10:\n"
    "KeyError: 'input_ids'\n",
    "Our V100s cannot run flash-attn 2, so we use sdpa; the error below comes from the tokenizer\n"
    "ValueError: tokenizer.json not found\n",
    # (helper rev28b) the writer's own failure under an issue template's heading
    "Our V100s cannot run flash-attn 2, so we use sdpa.\n### Logs\nTraining crashes at step 10:\nKeyError: 'input_ids'\n",
    "Our V100s cannot run flash-attn 2, so we use sdpa.\n### Logs\nPlease paste any relevant error messages here.\n"
    "ValueError: tokenizer.json not found\n",
])
def test_another_failure_after_the_limit_is_the_report(text):
    not_read_as(text, {"backend.unsupported-gpu"}, "fa2")


# explain: ex158's new and widened patterns, read on what they were not written for.
# - fa2.extension-missing in words: `rotary_emb` is also every model's rotary submodule (`self.rotary_emb`) and its weights
#   in a checkpoint; named as missing from a checkpoint it is no flash-attn build (fa2 asserted where no flash-attn is named)
# - attn.patch-no-kv-cache in words: a serving engine's FlashAttention refusing a KV cache *dtype*, quantization or offloading
#   is no training patch without the cache; its fix (use_cache=False, drop the repo's monkey patch) sends a vLLM user astray
# - attn.api-mismatch: the API said to change must be the backend's own (its name or version right before it)
# - fa2.platform-unsupported ("not compatible with" since ex158): the CPU as a place for memory (ZeRO / FSDP offloading) is a
#   GPU run, not flash-attn asked to run on a CPU (the fix says flash-attn has no CPU build)
@pytest.mark.parametrize("text, entries, backend", [
    ("KeyError: missing rotary_emb in layer 3's state dict (converted from Megatron)\n", {"fa2.extension-missing"}, "fa2"),
    ("The converted checkpoint is missing rotary_emb, so positions are ignored after loading\n", {"fa2.extension-missing"},
     "fa2"),
    ("WARNING: rotary_emb not found in checkpoint, using default RoPE init\n", {"fa2.extension-missing"}, "fa2"),
    ("ValueError: flash-attn does not support kv cache dtype fp8_e5m2 on this GPU\n", {"attn.patch-no-kv-cache"}, None),
    ("NotImplementedError: FlashAttention backend does not support the KV cache dtype fp8 with block size 16\n",
     {"attn.patch-no-kv-cache"}, None),
    ("FlashAttention is not compatible with the KV cache quantization you chose (int4)\n", {"attn.patch-no-kv-cache"}, None),
    ("flash attention is not supported with kv cache offloading in this version\n", {"attn.patch-no-kv-cache"}, None),
    ("Inference broken with flash-attn after transformers API update to 4.48\n", {"attn.api-mismatch"}, None),
    ("Compatibility breakage due to flash-attn and the new vLLM API update\n", {"attn.api-mismatch"}, None),
    ("flash_attn is not compatible with CPU offloading (ZeRO-3), the optimizer step fails\n", {"fa2.platform-unsupported"},
     None),
    ("flash attention 2 is not supported with CPU offload in FSDP\n", {"fa2.platform-unsupported"}, None),
    ("FlashAttention is not compatible with the CPU offload of the text encoder\n", {"fa2.platform-unsupported"}, None),
])
def test_not_what_ex158s_patterns_were_written_for(text, entries, backend):
    not_read_as(text, entries, backend)


# near misses: what they were written for, in other words than ex158's variants
@pytest.mark.parametrize("text, entry, backend", [
    ("ImportError: rotary_emb is not installed\n", "fa2.extension-missing", "fa2"),
    ("ModuleNotFoundError: No module named 'rotary_emb'\n", "fa2.extension-missing", "fa2"),
    ("运行时报错，找不到rotary_emb模块\n", "fa2.extension-missing", "fa2"),
    ("Training crashes at start: missing Python module 'rotary_emb'\n", "fa2.extension-missing", "fa2"),
    ("after pip install flash-attn the rotary_emb extension is not found\n", "fa2.extension-missing", "fa2"),
    ("运行时报错，找不到dropout_layer_norm模块\n", "fa2.extension-missing", "fa2"),
    ("The mistral patch for flash attention doesn't support past_key_values, so model.generate() breaks\n",
     "attn.patch-no-kv-cache", ANY),
    ("flash attention patch does not support the kv cache, generation fails\n", "attn.patch-no-kv-cache", ANY),
    ("FlashAttention can't be used with use_cache=True in this repo\n", "attn.patch-no-kv-cache", ANY),
    ("Compatibility Breakage Due to Flash Attention API Update (v2.7.0)\n", "attn.api-mismatch", "fa2"),
    ("broken after the flash-attn 2.7 API change\n", "attn.api-mismatch", "fa2"),
    ("Breaking change with xformers API update in 0.0.28: the fmha wrapper no longer runs\n", "attn.api-mismatch", "xformers"),
    ("flash attention is not compatible with a Colab TPU runtime, switch to a GPU runtime\n", "fa2.platform-unsupported", "fa2"),
    ("Flash-attn is not available on MPS, could it be possible to fallback to sdpa?\n", "fa2.platform-unsupported", "fa2"),
    ("flash-attn is not supported on the CPU\n", "fa2.platform-unsupported", "fa2"),
])
def test_what_ex158s_patterns_were_written_for(text, entry, backend):
    read_as(text, entry, backend)


# explain: ex158's DINOv2 notice. One bare "xFormers not available" line is as likely a report's title as DINOv2's logger,
# whose modules print it twice at import (dinov2/layers/attention.py and block.py): the title over the user's words is read
# as before ex158; near miss: its two bare notices over another program's error claim nothing (ex158's rule holds)
def test_a_bare_xformers_notice_alone_is_a_title():
    read_as("xFormers not available\nI installed xformers 0.0.23 with pip but the webui still says this after every restart "
            "with --xformers.\n", "prose.import", "xformers")
    not_read_as("xFormers not available\nxFormers not available\nTraceback (most recent call last):\n  File "
                "\"/work/depth/run.py\", line 12, in <module>\n    model = DepthModel.from_pretrained(path)\n"
                "KeyError: 'model_config'\n", set(), "xformers")


# configs: cfg118's GitHub Actions environment. The runner writes the workflow's and the job's env: into the job's
# environment when the job starts, an earlier step's $GITHUB_ENV line into the same one over them, and the step's env: over
# all (actions/runner src/Runner.Worker/JobExtension.cs InitializeJob, FileCommandManager.cs SetEnvFileCommand); a matrix
# axis is one value only where no `include:` entry adds another (GitHub's workflow syntax, strategy.matrix.include: an entry
# whose value no combination holds is a job of its own)
def _flux(mp: str) -> str:
    from test_configs_cfg118 import LAUNCH

    return LAUNCH.format(mp=mp, attn="")


MATRIX = "    strategy:\n      matrix:\n"


@pytest.mark.parametrize("top, job, steps, dtype", [
    ("  MP: fp16\n", "", [("", 'echo "MP=bf16" >> $GITHUB_ENV'), ("", _flux("$MP"))], "bfloat16"),
    ("", "    env:\n      MP: fp16\n", [("", 'echo "MP=bf16" >> $GITHUB_ENV'), ("", _flux("$MP"))], "bfloat16"),
    ("", MATRIX + "        mp: [bf16]\n        include:\n          - mp: fp16\n", [("", _flux("${{ matrix.mp }}"))], None),
    ("", MATRIX + "        include:\n          - mp: bf16\n", [("", _flux("${{ matrix.mp }}"))], "bfloat16"),
    # near misses: the step's own env: over $GITHUB_ENV; an include entry adding another key, or the axis's own value
    ("", "", [("", 'echo "MP=bf16" >> $GITHUB_ENV'), ("          MP: fp16\n", _flux("$MP"))], "float16"),
    ("", MATRIX + "        mp: [bf16]\n        include:\n          - gpu: a100\n", [("", _flux("${{ matrix.mp }}"))],
     "bfloat16"),
    ("", MATRIX + "        mp: [bf16]\n        include:\n          - mp: bf16\n            gpu: a100\n",
     [("", _flux("${{ matrix.mp }}"))], "bfloat16"),
])
def test_a_workflow_step_reads_what_the_runner_gives_it(tmp_path, top, job, steps, dtype):
    from attn_doctor import configs
    from test_configs_cfg118 import _workflow

    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    p = tmp_path / ".github" / "workflows" / "train.yml"
    p.write_text(_workflow(top, job, steps), encoding="utf-8")
    cfg = configs.load(str(p))
    assert (cfg["trainer"], cfg["dtype"]) == ("diffusers", dtype)


# configs: cfg118's value of a `for` loop's variable after `done` (the last value). Not where the body may `break` (bash
# leaves the value it broke on), nor where the loop's line goes on past `done` (`done; A=0`: the words after it are no
# values): the reading is then unknown, as before cfg118, never a value bash does not hold
BASH_AFTER_LOOPS = [
    ("for A in 1 2; do break; done\npython t.py", "1|"),
    ("for A in fp16 bf16; do\n  if true; then break; fi\ndone\npython t.py", "fp16|"),
    ("for A in 1 2; do :; done; A=0\npython t.py", "0|"),
]


@pytest.mark.parametrize("text, seen", BASH_AFTER_LOOPS)
def test_a_loop_that_may_break_leaves_no_last_value(text, seen):
    from test_configs_cfg114 import _reading

    assert _reading(text) in (seen, "|")


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here to ask")
def test_the_loop_snippets_are_bash_s_own(tmp_path):
    from test_configs_cfg114 import bash_says

    assert bash_says([text for text, _ in BASH_AFTER_LOOPS], tmp_path) == [seen for _, seen in BASH_AFTER_LOOPS]
