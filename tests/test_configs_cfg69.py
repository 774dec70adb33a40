"""Round 69 read as training material (helper cfg69): the reader change its files asked for, on variants written here
(other keys, placements, paths, files that must stay as they were).

Half A (five repositories) was read right before any change. Read after half B's measurement: diffusion-pipe's dataset
TOML may bucket only with `size_buckets` (explicit [width, height, frames] buckets, tdrussell/diffusion-pipe
utils/dataset.py, since 8743be6), and every bucketing key may sit in a [[directory]] table instead of the top
(directory_config.get(KEY, dataset_config.get(KEY))): such a file is a dataset config, refused as one, not as an unknown
file. A training TOML that names a dataset (model / optimizer / output_dir / epochs) is still read as diffusion-pipe,
and a [[directory]] list with no bucketing key anywhere is not taken for diffusion-pipe's."""

from __future__ import annotations

import pytest

from configs_corpus import read, refusal

SIZE_BUCKETS_TOP = """# robot pick-place clips, fixed spatial bucket
size_buckets = [[320, 240, 33]]

[[directory]]
path = '/data/clips/train/drawer'
num_repeats = 2

[[directory]]
path = '/data/clips/train/shelf'
num_repeats = 1
"""

PER_DIRECTORY = """[[directory]]
path = "D:/datasets/frames_a"
size_buckets = [[512, 512, 1], [512, 512, 17]]
num_repeats = 4

[[directory]]
path = "D:/datasets/frames_b"
resolutions = [384]
frame_buckets = [1, 33]
"""

DELIMITER_ONLY = """cache_shuffle_num = 4
cache_shuffle_delimiter = '|'

[[directory]]
path = 'images/style'
"""


@pytest.mark.parametrize("name, text", [("dataset_sizes.toml", SIZE_BUCKETS_TOP),
                                        ("ds-per-dir.toml", PER_DIRECTORY),
                                        ("captions.toml", DELIMITER_ONLY)])
def test_diffusion_pipe_dataset_bucketing_anywhere_is_a_dataset_config(tmp_path, name, text):
    msg = refusal(tmp_path, name, text)
    assert "dataset config" in msg and "diffusion-pipe" in msg


def test_a_training_toml_with_size_buckets_stays_diffusion_pipe(tmp_path):
    text = ("output_dir = '/runs/x'\ndataset = 'ds.toml'\nepochs = 10\nsize_buckets = [[256, 256, 1]]\n\n"
            "[model]\ntype = 'wan'\nckpt_path = '/m/Wan2.1-T2V-1.3B'\ndtype = 'bfloat16'\n\n"
            "[adapter]\ntype = 'lora'\nrank = 16\n\n[optimizer]\ntype = 'adamw_optimi'\nlr = 2e-5\n")
    trainer, required, dtype, _ = read(tmp_path, "wan.toml", text)
    assert (trainer, required, dtype) == ("diffusion-pipe", ["fa2"], "bfloat16")


def test_a_directory_list_without_bucketing_is_not_diffusion_pipes(tmp_path):
    msg = refusal(tmp_path, "mirrors.toml", "[[directory]]\npath = '/srv/mirror/a'\nowner = 'ops'\n\n"
                                            "[[directory]]\npath = '/srv/mirror/b'\nowner = 'ops'\n")
    assert "diffusion-pipe's" not in msg
