"""Issue 24, round 52: the reader changes round 52's misses asked for, with variants written for this test (what each
fakes is in its text) and near misses that must keep their reading.

Round 52's two claimed misses on main (bad88bb) were PowerShell launchers that start sd-scripts through the kohya_ss
venv's accelerate.exe: `$Accelerate = Join-Path $KohyaRoot "venv\\Scripts\\accelerate.exe"`, the training options in
an array (`$Args = @("launch", ..., $TrainScript, "--sdpa", ...)`) and `Start-Process -FilePath $Accelerate
-ArgumentList $Args`. Main kept `Join-Path $KohyaRoot ...` as the variable's text, so the command was `Join-Path` and
the options were never an accelerate launch's (sd-scripts by the script's name only: no attention, float32). Now:
- a PowerShell `Join-Path A B [C ...]` / `Join-Path -Path A -ChildPath B` / `(Join-Path ...)` /
  `[System.IO.Path]::Combine(A, B)` of quoted strings and variables the script sets is the path it builds
  (shell._ps_join_path); a part the script does not know (a parameter, `$env:` unset) or `-Resolve` leaves it alone;
- a launcher started by its Windows file name (`accelerate.exe`, `torchrun.exe`, `deepspeed.exe`, a venv's
  Scripts\\ path included) is that launcher (shell.take_apart).
Run against main bad88bb, the variants marked NEW fail there; the rest pass there too and guard that the old readings
hold."""

from __future__ import annotations

from configs_corpus import read as _read

from attn_doctor.configs import shell

# ---------------------------------------------------------------------------------------------------------------------
# Join-Path
# ---------------------------------------------------------------------------------------------------------------------

START_PROCESS_ARRAY = """\
param([string]$Out = "D:\\\\loras\\\\out")
$Root = "D:\\\\tools\\\\kohya"
$Launcher = Join-Path $Root "venv\\\\Scripts\\\\accelerate.exe"
$Script = Join-Path -Path $Root -ChildPath "sd-scripts\\\\train_network.py"
if (-not (Test-Path $Script)) { throw "no script: $Script" }
$Params = @(
    "launch", "--num_cpu_threads_per_process", "2",
    $Script,
    "--pretrained_model_name_or_path=D:/models/v15.safetensors",
    "--output_dir=$Out",
    "--mixed_precision=bf16",
    "--xformers"
)
Start-Process -NoNewWindow -Wait -FilePath $Launcher -ArgumentList $Params
"""


def test_new_join_path_and_accelerate_exe_from_start_process(tmp_path):
    """NEW: the launcher and the script both built with Join-Path (positional and named), the options in an array."""
    assert _read(tmp_path, "train.ps1", START_PROCESS_ARRAY) == ("sd-scripts", ["xformers"], "bfloat16", "none")


CALL_OPERATOR = """\
$venv = "C:/ai/musubi/.venv"
$acc = (Join-Path $venv "Scripts/accelerate.exe")
$trainer = [System.IO.Path]::Combine("C:/ai/musubi", "src/musubi_tuner/wan_train_network.py")
& $acc launch --mixed_precision fp16 $trainer --task t2v-A14B --dit C:/m/low.safetensors --sdpa --mixed_precision fp16
"""


def test_new_call_operator_on_a_joined_launcher_path(tmp_path):
    """NEW: `(Join-Path ...)` in parentheses and [System.IO.Path]::Combine, slashes kept, the call operator `&`."""
    assert _read(tmp_path, "wan.ps1", CALL_OPERATOR) == ("musubi", ["sdpa"], "float16", "none")


def test_join_path_values():
    """What the helper builds, and what it leaves alone."""
    env = {"Root": "C:\\k", "Slash": "/opt/k"}
    assert shell._ps_join_path('Join-Path $Root "a\\b.py"', env) == "C:\\k\\a\\b.py"
    assert shell._ps_join_path("Join-Path -Path $Root -ChildPath 'x.exe'", env) == "C:\\k\\x.exe"
    assert shell._ps_join_path('Join-Path $Root "venv" "Scripts" "python.exe"', env) == "C:\\k\\venv\\Scripts\\python.exe"
    assert shell._ps_join_path('(Join-Path $Slash "bin/run.py")', env) == "/opt/k/bin/run.py"
    assert shell._ps_join_path('[IO.Path]::Combine($Slash, "x.py")', env) == "/opt/k/x.py"
    # a part the script does not set stays as written; a last part that is not a literal, -Resolve (a look at the
    # disk), or anything but a join: left alone
    assert shell._ps_join_path('Join-Path $Unset "a.py"', env) == "$Unset\\a.py"
    assert shell._ps_join_path('Join-Path $Root $Unset', env) is None
    assert shell._ps_join_path('Join-Path $Root "a.py" -Resolve', env) is None
    assert shell._ps_join_path('Split-Path -Parent $Root', env) is None
    assert shell._ps_join_path('"a" + "b"', env) is None


UNKNOWN_ROOT = """\
param([Parameter(Mandatory)][string]$KohyaDir)
$Py = Join-Path $KohyaDir "venv\\\\Scripts\\\\python.exe"
& $Py sdxl_train_network.py --pretrained_model_name_or_path=sdxl.safetensors --sdpa --mixed_precision=fp16
"""


def test_a_join_on_a_parameter_still_runs_the_script_it_names(tmp_path):
    """NEW: a Join-Path on a mandatory parameter: the interpreter it builds is still python.exe, and the launch line's
    script and options are read (main took the whole `Join-Path ...` text for the command)."""
    got = _read(tmp_path, "run.ps1", UNKNOWN_ROOT)
    assert got[0] == "sd-scripts" and got[1] == ["sdpa"] and got[2] == "float16"


# ---------------------------------------------------------------------------------------------------------------------
# a launcher by its Windows file name
# ---------------------------------------------------------------------------------------------------------------------

BAT_ACCELERATE_EXE = """\
@echo off
set VENV=E:\\kohya_ss\\venv
"%VENV%\\Scripts\\accelerate.exe" launch --num_cpu_threads_per_process 4 sd-scripts\\flux_train_network.py ^
  --pretrained_model_name_or_path flux1-dev.safetensors --sdpa --mixed_precision bf16 --fp8_base
"""


def test_new_accelerate_exe_in_a_batch_file(tmp_path):
    """NEW: a .bat that runs the venv's accelerate.exe by its full path."""
    assert _read(tmp_path, "flux.bat", BAT_ACCELERATE_EXE) == ("sd-scripts", ["sdpa"], "bfloat16", "none")


TORCHRUN_EXE = """\
$env:PYTHONUTF8 = "1"
& "C:\\\\py\\\\Scripts\\\\torchrun.exe" --nproc_per_node 1 sdxl_train.py --pretrained_model_name_or_path x.safetensors --xformers --mixed_precision fp16
"""


def test_new_torchrun_exe(tmp_path):
    """NEW: torchrun.exe by its path: the script it runs is read."""
    got = _read(tmp_path, "ft.ps1", TORCHRUN_EXE)
    assert got[:3] == ("sd-scripts", ["xformers"], "float16")


PLAIN_ACCELERATE = """\
accelerate launch --num_cpu_threads_per_process 1 train_network.py --pretrained_model_name_or_path m.safetensors \\
  --mixed_precision fp16 --xformers
"""


def test_plain_accelerate_keeps_its_reading(tmp_path):
    assert _read(tmp_path, "train.sh", PLAIN_ACCELERATE) == ("sd-scripts", ["xformers"], "float16", "none")
