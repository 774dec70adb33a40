"""rev24 (session 24): near misses of session 24's configs rules, read as bash runs the launch (variants of our own).

cfg100's _exported (configs/__init__.py): `set -a` (allexport) marks for export the variables assigned after it, until
`set +a` (bash(1), SHELL BUILTIN COMMANDS, set -a); a `PYTHONPATH=src` line before it, or after `set +a`, stays the
shell's own variable and never reaches the program (the common `set -a; source .env; set +a` idiom)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("launch, read", [
    ("set -a\nsource .env\nset +a\nPYTHONPATH=src\npython scripts/train.py", False),  # allexport off again before it
    ("set -a; source .env; set +a\nPYTHONPATH=src\npython scripts/train.py", False),  # the one-line idiom
    ("PYTHONPATH=src\nset -a\npython scripts/train.py", False),  # assigned before allexport
    ("set -o allexport\n. ./.env\nset +o allexport\nPYTHONPATH=src\npython scripts/train.py", False),
    ("set -a\nPYTHONPATH=src\nset +a\npython scripts/train.py", True),  # assigned while allexport is on
    ("set -eao pipefail\nPYTHONPATH=src\npython scripts/train.py", True),
])
def test_allexport_covers_only_the_assignments_under_it(tmp_path, launch, read):
    from configs_corpus import put, trainer_reading
    from test_configs_cfg96 import FA2, _src_package

    _src_package(tmp_path)
    put(tmp_path, ".env", "WANDB_MODE=offline\n")
    assert trainer_reading(put(tmp_path, "run.sh", "#!/bin/bash\n" + launch + "\n")) == (FA2 if read else "refused")
