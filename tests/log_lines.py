"""Lines a training log prints at every step or many times over, for the tests that keep explain's patterns off
them (a pattern keyed on a word of such a line is searched on most lines of a 50 MB log: benchmarks/explain_50mb.py).
Written by hand from the shapes trainers print (HF Trainer's loss dict, tqdm, a logger's INFO line, torch's
warnings, a traceback's frame body), not copied from a log."""

from __future__ import annotations

from attn_doctor.knowledge.match import needles, shape

LOSS = "{'loss': 1.2345, 'grad_norm': 3.456, 'learning_rate': 1.000e-05, 'epoch': 0.12}"
PROGRESS = " 45%|████▌     | 45/100 [00:45<01:40,  1.23it/s]"
INFO = "2026-11-25 10:12:13,456 INFO trainer.py:412 step 1200 tokens/s 45012 mem 61.2GiB output_dir=/out"
FRAME_BODY = "  return fn(*args, **kwargs)"
TORCH_WARNING = ("/venv/lib/python3.11/site-packages/torch/utils/checkpoint.py:87: UserWarning: torch.utils.checkpoint: "
                 "the use_reentrant parameter should be passed explicitly.")
INDUCTOR = "W1128 10:12:13.456000 2211 torch/_inductor/select_algorithm.py:1905] triton 3.3.0 autotune: 12 configs"
CHECKPOINT = "Saving model checkpoint to /output/checkpoint-1200 (GPU memory usage 61.2 GiB, cuda:0)"
WANDB = "wandb: Run data is saved locally in /workspace/wandb/run-20261125_101213-3f9a2b1c"

# what the round files' own patterns stay off (rounds 6a, 7a): every step's lines, a frame's body, torch's warning
STEP = [LOSS, FRAME_BODY, TORCH_WARNING, PROGRESS, INFO]


def needles_on(pattern: str, lines: list[str]) -> list[str]:
    """The prefilter needles of `pattern` that one of `lines` holds (each line as the prefilter sees it)."""
    shapes = [shape(line.lower()) for line in lines]
    return [n for n in needles(pattern) if any(n in s for s in shapes)]
