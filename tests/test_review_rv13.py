"""The low-severity defects left by the new-user trial of session 10 (benchmarks/results/new-user-s10.md #11-14)
and rv12's leftovers, each as a test that failed before its fix."""

from __future__ import annotations

import shlex

from attn_doctor.trace.report import build

EAGER = [{"pid": 1, "rows": [{"site": "/work/train.py:3", "function": "main", "backend": "sdpa", "kernel": "math",
                              "compiled": False, "dtype": "float32", "mask": "none", "head_dim": 64, "device": "cpu",
                              "entry": "torch.nn.functional.scaled_dot_product_attention", "count": 1,
                              "first_seen": 0.1}], "errors": []}]


def _cfg(path: str, by: str) -> dict:
    return {"trainer": "axolotl", "trainer_title": "axolotl", "path": path, "required": ["fa2"],
            "detected": {"trainer": "axolotl", "by": by},
            "attention": [{"name": "flash_attention: true", "setting": "flash_attention", "backend": "fa2"}]}


def _differs(cfg: dict):
    (cd,) = [f for f in build(EAGER, config=cfg, command=["python", "train.py"], program_exit_code=0).findings
             if f.id == "trace.config-differs"]
    return cd


# rv12 #5 left: trace's `check --config` hint drops --trainer, so pasted it reads the file as another trainer
def test_trace_config_hint_carries_trainer():
    words = shlex.split(_differs(_cfg("/work/cfg.json", "--trainer")).fix.split("#")[0])
    assert words[:2] == ["attn-doctor", "check"]
    assert words[words.index("--config") + 1] == "/work/cfg.json"
    assert words[words.index("--trainer") + 1] == "axolotl"


def test_trace_config_hint_detected_trainer_not_forced_and_path_quoted():
    words = shlex.split(_differs(_cfg("/work/my configs/a b.yml", "content")).fix.split("#")[0])
    assert "--trainer" not in words  # detected from the content: check detects it the same way
    assert words[words.index("--config") + 1] == "/work/my configs/a b.yml"
