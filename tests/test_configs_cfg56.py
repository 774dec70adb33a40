"""Issue 24, helper cfg56 (session 13): what round 54m showed once it became training material.

Round 54m's misses, by mechanism (every variant below is synthetic, written here, not taken from any repository):
- users' scripts read their settings with dict.get and a default: `attn_implementation=cfg["model"].get(
  "attn_implementation", "sdpa")` (tutucheng99's sft_train.py), `attn_implementation=cfg.get("attn", "sdpa")`
  (Satyajithchary), `bf16=cfg.get("bf16", False)` (thao12345310), cfg the YAML the script loads by its --config
  default. value() had no reading of `.get`: the entry of a dict known here whole (written out, or loaded from a file
  that is here), else the getter's default; a dict not known whole stays unknown (round 17's convention: the file that
  is not here decides, not the default; so is a dict the script updates with contents not known here). Since cfg71 an
  attention lookup's default is the exception (the attention the script is written for, as cfg63's autocast switches).
  `getattr(torch, cfg["model"]["dtype"])` names a torch dtype the same way.
- thao12345310's `add_argument("--config", type=Path, default=Path("configs/qwen_lora_sft.yaml"))`: the default's
  path was not unwrapped from Path(...), so the config was never loaded (pyscript._path_value).
- Satyajithchary's loader tries model classes and keyword sets in fallback loops (`for mod, cls_name in
  MODEL_CLASS_CANDIDATES: cls = getattr(importlib.import_module(mod), cls_name)` ... `for kwargs in (kw, {...}): try:
  return cls.from_pretrained(name, **kwargs)`): the first candidate of a loop that tries and returns / breaks is what
  the run takes when it works (pyscript._fallback_candidates), and a class looked up in transformers by a known name is
  that class (hf_transformers._transformers_attr).
- PshySimon's LLaMA-Factory launcher writes its YAML with a `{ echo "k: v"; ... } > "$TRAIN_YAML"` group, values
  through `$(yaml_bool "$BF16")` of a `case` function of its own: the group is a file the script writes (as a
  here-document is), the function's echoed value is substituted (shell._echo_group, shell._function_values).
- codechips' start.sh (a vast.ai start script: file browser, proxy, no training) was refused without the "no trainer
  calls" its label asks for: a shell script with no trainer's command says so, as a Python script's refusal does.
- skywong14's SDXL launcher reads every flag from its YAML with `VAR="$(yaml_get training.mixed_precision)"`, yaml_get
  an embedded python over "$CONFIG_PATH" = `$(resolve_path "$CONFIG_PATH")`: such getters (and `yq '.a.b' FILE`) hold
  the value the file here has (shell._settings_assignment); its `add_bool_flag` appends to the script's CMD array from
  inside a function, whose body now sees the script's arrays (it used to return the append alone).
"""

from __future__ import annotations

import os
import textwrap

import pytest

from attn_doctor import configs


def _write(root, rel: str, text: str) -> str:
    p = os.path.join(str(root), rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w", encoding="utf-8") as fh:
        fh.write(textwrap.dedent(text).lstrip("\n"))
    return p


def _read(path: str) -> tuple[list, str]:
    cfg = configs.load(path)
    return sorted(cfg.get("required") or []), cfg.get("dtype") or ""


# ---------------------------------------------------------------------------------------------------
# 1. dict.get with a default, on a dict known here whole
# ---------------------------------------------------------------------------------------------------

_GET_SCRIPT = """
import argparse
{imports}
import torch
import yaml
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer


def load_settings(path):
    with open(path, "r", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settings", {argtype}default={default})
    a = ap.parse_args()
    conf = load_settings(a.settings)
    model = AutoModelForCausalLM.from_pretrained(
        conf["base"], attn_implementation={attn}, torch_dtype={dtype})
    args = TrainingArguments(output_dir="out", bf16={bf16})
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
"""

GET_CASES = {
    # name: (settings YAML or None when the file is not there, attn expr, dtype expr, bf16 expr, argparse type, default,
    #        expected required, expected dtype)
    "section_key_present": ("base: m\nmodel:\n  attn_implementation: flash_attention_2\n  dtype: bfloat16\nbf16: true\n",
                            'conf["model"].get("attn_implementation", "sdpa")', 'getattr(torch, conf["model"]["dtype"])',
                            'conf.get("bf16", False)', "", '"conf/run.yaml"', ["fa2"], "bfloat16"),
    "key_absent_default_taken": ("base: m\nmodel:\n  dtype: float16\n", 'conf["model"].get("attn_implementation", "sdpa")',
                                 'getattr(torch, conf["model"]["dtype"])', 'conf.get("fp16_off", False)', "",
                                 '"conf/run.yaml"', ["sdpa"], "float16"),
    "chained_get_with_default_section": ("base: m\ntrain:\n  bf16: true\n",
                                         'conf.get("model", {}).get("attn", "flash_attention_2")', "torch.bfloat16",
                                         'conf.get("train", {}).get("bf16", False)', "type=Path, ",
                                         'Path("conf/run.yaml")', ["fa2"], "bfloat16"),
    "path_default_pathlib": ("base: m\nattn: sdpa\nprecision: bf16\n", 'conf.get("attn", "eager")', "torch.bfloat16",
                             'conf.get("precision") == "bf16"', "type=pathlib.Path, ",
                             'pathlib.Path("conf/run.yaml")', ["sdpa"], "bfloat16"),
}


@pytest.mark.parametrize("name", sorted(GET_CASES))
def test_a_setting_read_with_get_from_the_loaded_file(tmp_path, name):
    yml, attn, dtype, bf16, argtype, default, want_req, want_dtype = GET_CASES[name]
    imports = "import pathlib" if "pathlib." in argtype else "from pathlib import Path"
    _write(tmp_path, "conf/run.yaml", yml)
    script = _write(tmp_path, "train.py", _GET_SCRIPT.format(imports=imports, argtype=argtype, default=default,
                                                             attn=attn, dtype=dtype, bf16=bf16))
    assert _read(script) == (want_req, want_dtype)


def test_a_get_of_a_file_that_is_not_here_stays_unknown(tmp_path):
    """The file decides, not the getter's default: no dtype (round 17's convention), and `fp16_off` defaulting False turns
    no autocast on (cfg63). The attention is the exception since cfg71 (round 68m's nhockid235 grpo.py: an attention
    lookup's default is the attention the script is written for, hf_transformers._attention_default): sdpa here."""
    yml, attn, dtype, bf16, argtype, default, _, _ = GET_CASES["key_absent_default_taken"]
    script = _write(tmp_path, "train.py", _GET_SCRIPT.format(imports="", argtype=argtype, default=default, attn=attn,
                                                             dtype=dtype, bf16=bf16))
    assert _read(script) == (["sdpa"], "")


def test_a_get_of_a_dict_written_in_the_script(tmp_path):
    script = _write(tmp_path, "train.py", """
        import torch
        from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

        SETTINGS = {"model": {"name": "m", "attn": "sdpa"}, "fp16": True}
        model = AutoModelForCausalLM.from_pretrained(
            SETTINGS["model"]["name"], attn_implementation=SETTINGS["model"].get("attn", "flash_attention_2"))
        args = TrainingArguments(output_dir="o", fp16=SETTINGS.get("fp16", False), bf16=SETTINGS.get("bf16", False))
        Trainer(model=model, args=args).train()
    """)
    assert _read(script) == (["sdpa"], "float16")


def test_a_get_of_a_dict_with_a_spread_not_known_here_is_unknown(tmp_path):
    """`{**user_overrides, ...}`: the key may come from the spread, so an absent key is no known entry; since cfg71 an
    attention lookup's default is read as the script's attention all the same (as where the whole file is not here)."""
    script = _write(tmp_path, "train.py", """
        import json, sys
        from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

        overrides = json.loads(sys.argv[1])
        settings = {**overrides, "name": "m"}
        model = AutoModelForCausalLM.from_pretrained("m", attn_implementation=settings.get("attn", "flash_attention_2"))
        Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
    """)
    assert _read(script) == (["fa2"], "bfloat16")
    unknown = _write(tmp_path, "other.py", """
        import json, sys
        from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

        overrides = json.loads(sys.argv[1])
        settings = {**overrides, "name": "m"}
        model = AutoModelForCausalLM.from_pretrained("m", attn_implementation=settings.get("attn", sys.argv[2]))
        Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
    """)
    assert _read(unknown) == ([], "bfloat16")  # a default not written in the script says nothing


def test_a_get_of_a_dict_updated_at_run_time_is_unknown(tmp_path):
    """`settings.update(json.load(fh))`: the update may bring the key, so an absent key is no known entry (the switch's
    default False turns nothing on: no dtype); a dict updated with a dict written out keeps its known keys. The
    attention lookup's default is the script's attention since cfg71 (as where the file is not here)."""
    script = _write(tmp_path, "train.py", """
        import json
        from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

        settings = {"name": "m", "fp16": True}
        with open("user_settings.json") as fh:
            settings.update(json.load(fh))
        extra = {"name": "m"}
        extra.update({"attn": "sdpa"})
        model = AutoModelForCausalLM.from_pretrained("m", attn_implementation=settings.get("attn", "flash_attention_2"))
        args = TrainingArguments(output_dir="o", fp16=settings.get("fp16", False), bf16=extra.get("bf16", False))
        Trainer(model=model, args=args).train()
    """)
    assert _read(script) == (["fa2"], "")


# ---------------------------------------------------------------------------------------------------
# 2. fallback loops and classes looked up in transformers by name
# ---------------------------------------------------------------------------------------------------

def test_the_first_candidate_of_a_fallback_loop(tmp_path):
    script = _write(tmp_path, "train.py", """
        import importlib
        import torch
        from transformers import TrainingArguments, Trainer

        CANDIDATES = [
            ("transformers", "Qwen2_5_VLForConditionalGeneration"),
            ("transformers", "AutoModelForVision2Seq"),
        ]

        IMPL = "flash_attention_2"

        def load(name):
            opts = {"torch_dtype": torch.bfloat16, "attn_implementation": IMPL}
            for module_name, class_name in CANDIDATES:
                try:
                    klass = getattr(importlib.import_module(module_name), class_name)
                except AttributeError:
                    continue
                for extra in (opts, {"attn_implementation": "eager"}):
                    try:
                        return klass.from_pretrained(name, **extra)
                    except TypeError:
                        continue
            raise RuntimeError("no class")

        model = load("org/vl")
        Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
    """)
    assert _read(script) == (["fa2"], "bfloat16")


def test_a_loop_over_implementations_with_break(tmp_path):
    script = _write(tmp_path, "train.py", """
        import transformers
        from transformers import TrainingArguments, Trainer

        model_cls = getattr(transformers, "LlamaForCausalLM")
        for impl in ["sdpa", "eager"]:
            try:
                model = model_cls.from_pretrained("m", attn_implementation=impl)
                break
            except ValueError:
                pass
        Trainer(model=model, args=TrainingArguments(output_dir="o", fp16=True)).train()
    """)
    assert _read(script) == (["sdpa"], "float16")


def test_a_sweep_loop_is_no_fallback(tmp_path):
    """Every value of a loop that tries nothing runs: no one of them is the run's (the variable stays unknown)."""
    script = _write(tmp_path, "train.py", """
        from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

        for impl in ("flash_attention_2", "sdpa"):
            model = AutoModelForCausalLM.from_pretrained("m", attn_implementation=impl)
            Trainer(model=model, args=TrainingArguments(output_dir=f"o-{impl}", bf16=True)).train()
    """)
    assert _read(script) == ([], "bfloat16")


def test_a_class_looked_up_in_another_module_is_not_transformers(tmp_path):
    script = _write(tmp_path, "train.py", """
        import importlib
        from transformers import TrainingArguments, Trainer

        klass = getattr(importlib.import_module("mylab.models"), "TinyForCausalLM")
        model = klass.from_pretrained("m", attn_implementation="flash_attention_2")
        Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
    """)
    assert _read(script) == ([], "bfloat16")


# ---------------------------------------------------------------------------------------------------
# 3. a YAML written by a group of echo lines, values through a function of the script's own
# ---------------------------------------------------------------------------------------------------

_ECHO_LAUNCHER = """
#!/bin/bash
set -euo pipefail
OUT="${{OUT:-$(pwd)/runs/sft}}"
RUN_YAML="${{RUN_YAML:-$OUT/run.yaml}}"
ATTN="${{ATTN:-{attn}}}"
HALF="${{HALF:-{half}}}"
USE_EXTRA="${{USE_EXTRA:-0}}"

{fn}() {{
    case "$1" in
        1|true|True|yes) echo "true" ;;
        *) echo "false" ;;
    esac
}}

mkdir -p "$OUT"
{open}
    echo "stage: sft"
    echo "do_train: true"
    echo "model_name_or_path: Qwen/Qwen3-4B"
    echo "finetuning_type: lora"
    echo "template: qwen3"
    echo "output_dir: $OUT"
    echo "{prec}: $({fn} "$HALF")"
{attn_line}
    if [ "$USE_EXTRA" = "1" ]; then
        echo "enable_liger_kernel: true"
    fi
{close} "$RUN_YAML"

llamafactory-cli train "$RUN_YAML"
"""

ECHO_CASES = {
    # name: (attn, half, function name, precision key, group open, group close, attention line, required, dtype)
    "brace_group_bf16_fa2": ("fa2", "true", "yaml_bool", "bf16", "{", "}", '    echo "flash_attn: $ATTN"',
                             ["fa2"], "bfloat16"),
    "subshell_fp16_sdpa": ("sdpa", "1", "to_bool", "fp16", "(", ")", '    echo "flash_attn: ${ATTN}"', ["sdpa"],
                           "float16"),
    # bf16: false, as the same YAML written out reads (no precision of its own: the reader says none)
    "precision_off": ("fa2", "no", "as_bool", "bf16", "{", "}", '    echo "flash_attn: $ATTN"', ["fa2"], ""),
    "attention_under_an_if": ("fa2", "true", "yaml_bool", "bf16", "{", "}",
                              '    if [ "$ATTN" = "fa2" ]; then\n        echo "flash_attn: fa2"\n    fi', [],
                              "bfloat16"),
}


@pytest.mark.parametrize("name", sorted(ECHO_CASES))
def test_a_yaml_written_by_echo_lines(tmp_path, name):
    attn, half, fn, prec, opn, close, attn_line, want_req, want_dtype = ECHO_CASES[name]
    text = _ECHO_LAUNCHER.format(attn=attn, half=half, fn=fn, prec=prec, open=opn, close=close + " >",
                                 attn_line=attn_line)
    script = _write(tmp_path, "scripts/train_lf.sh", text)
    cfg = configs.load(script)
    assert cfg["detected"]["trainer"] == "llama-factory"
    assert (sorted(cfg.get("required") or []), cfg.get("dtype") or "") == (want_req, want_dtype)


def test_a_function_that_does_more_than_echo_stays_unknown(tmp_path):
    text = _ECHO_LAUNCHER.format(attn="fa2", half="true", fn="yaml_bool", prec="bf16", open="{", close="} >",
                                 attn_line='    echo "flash_attn: $ATTN"')
    text = text.replace('1|true|True|yes) echo "true" ;;', '1|true|True|yes) printf "%s" "$2" ;;')
    script = _write(tmp_path, "scripts/train_lf.sh", text)
    cfg = configs.load(script)
    assert sorted(cfg.get("required") or []) == ["fa2"]
    assert cfg.get("dtype") in (None, "")


def test_a_heredoc_value_through_a_function_of_the_script(tmp_path):
    script = _write(tmp_path, "run.sh", """
        #!/bin/bash
        BF16=${BF16:-yes}
        norm() {
            case "$1" in
                y|yes|1) echo true ;;
                *) echo false ;;
            esac
        }
        cat > run.yaml <<EOF
        stage: sft
        do_train: true
        model_name_or_path: Qwen/Qwen3-0.6B
        finetuning_type: lora
        template: qwen3
        output_dir: out
        bf16: $(norm "$BF16")
        flash_attn: sdpa
        EOF
        llamafactory-cli train run.yaml
    """)
    assert _read(script) == (["sdpa"], "bfloat16")


# ---------------------------------------------------------------------------------------------------
# 4. a shell script that trains nothing: refused, its refusal saying so as a Python script's does
# ---------------------------------------------------------------------------------------------------

from attn_doctor.model import UsageError  # noqa: E402

SERVICE_SCRIPTS = {
    "start_services.sh": """
        #!/bin/bash
        set -e
        if [ -z "$PANEL_PASSWORD" ]; then echo "set PANEL_PASSWORD"; exit 1; fi
        jupyter lab --ip 0.0.0.0 --no-browser &
        nginx -g 'daemon off;'
    """,
    "entrypoint": """
        #!/usr/bin/env bash
        mkdir -p /workspace/datasets
        code-server --bind-addr 0.0.0.0:8080 /workspace &
        tail -f /dev/null
    """,
}


@pytest.mark.parametrize("name", sorted(SERVICE_SCRIPTS))
def test_a_shell_script_with_no_training_command(tmp_path, name):
    p = _write(tmp_path, name, SERVICE_SCRIPTS[name])
    with pytest.raises(UsageError) as err:
        configs.load(p)
    msg = str(err.value)
    assert "\n" not in msg and "not a trainer config" in msg and "no trainer calls" in msg


def test_a_text_file_that_is_no_script_is_not_called_one(tmp_path):
    p = _write(tmp_path, "notes.txt", """
        alpha v0.5 pruned
        Turbo LoRA not merged
    """)
    with pytest.raises(UsageError) as err:
        configs.load(p)
    assert "not a trainer config" in str(err.value) and "shell script" not in str(err.value)


# ---------------------------------------------------------------------------------------------------
# 5. a launcher's flags read from its YAML through a getter (a function of its own, or yq), and a function that
#    appends to the launcher's array
# ---------------------------------------------------------------------------------------------------

_GETTER_LAUNCHER = r'''
#!/usr/bin/env bash
set -euo pipefail
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
SETTINGS="$ROOT/settings/{settings}"

{norm}() {{
  python3 - "$1" <<'PY'
import os, sys
print(os.path.realpath(os.path.expanduser(sys.argv[1])))
PY
}}

{getter}() {{
  python3 - "$SETTINGS" "$1" <<'PY'
import sys, yaml
data = yaml.safe_load(open(sys.argv[1]))
node = data
for part in sys.argv[2].split("."):
    node = node[part]
print(str(node).lower() if isinstance(node, bool) else node)
PY
}}

flag_if() {{
  if [[ "$1" == "true" ]]; then
    ARGS+=("$2")
  fi
}}

SETTINGS="$({norm} "$SETTINGS")"
PREC="$({getter} train.precision)"
XF="$({getter} train.use_xformers)"
BASE="$({getter} model.base)"
ARGS=(
  accelerate launch train_text_to_image.py
  --pretrained_model_name_or_path "$BASE"
  --train_data_dir data --resolution 1024 --train_batch_size 1
  --mixed_precision "$PREC"
)
flag_if "$XF" --enable_xformers_memory_efficient_attention
flag_if true --gradient_checkpointing
"${{ARGS[@]}}"
'''

GETTER_CASES = {
    # name: (settings YAML, expected required, expected dtype)
    "bf16_xformers": ("model:\n  base: stabilityai/stable-diffusion-xl-base-1.0\ntrain:\n  precision: bf16\n"
                      "  use_xformers: true\n", ["xformers"], "bfloat16"),
    "fp16_no_xformers": ("model:\n  base: runwayml/stable-diffusion-v1-5\ntrain:\n  precision: fp16\n"
                         "  use_xformers: false\n", [], "float16"),
}


@pytest.mark.parametrize("name", sorted(GETTER_CASES))
def test_flags_read_from_the_yaml_by_a_getter_function(tmp_path, name):
    yml, want_req, want_dtype = GETTER_CASES[name]
    _write(tmp_path, "settings/run.yaml", yml)
    script = _write(tmp_path, "scripts/train.sh", _GETTER_LAUNCHER.format(settings="run.yaml", norm="abs_path",
                                                                          getter="cfg_value"))
    cfg = configs.load(script)
    assert cfg["detected"]["trainer"] == "diffusers"
    assert (sorted(cfg.get("required") or []), cfg.get("dtype") or "") == (want_req, want_dtype)


def test_a_getter_of_a_file_that_is_not_here_stays_unknown(tmp_path):
    script = _write(tmp_path, "scripts/train.sh", _GETTER_LAUNCHER.format(settings="run.yaml", norm="abs_path",
                                                                          getter="cfg_value"))
    cfg = configs.load(script)
    assert cfg["detected"]["trainer"] == "diffusers" and not cfg.get("dtype")


def test_a_function_that_is_no_getter_stays_unknown(tmp_path):
    _write(tmp_path, "settings/run.yaml", GETTER_CASES["bf16_xformers"][0])
    text = _GETTER_LAUNCHER.format(settings="run.yaml", norm="abs_path", getter="cfg_value")
    text = text.replace('for part in sys.argv[2].split("."):\n    node = node[part]\n', 'node = node["train"]\n')
    script = _write(tmp_path, "scripts/train.sh", text)
    cfg = configs.load(script)
    assert not cfg.get("dtype") and not cfg.get("required")


def test_flags_read_with_yq(tmp_path):
    _write(tmp_path, "params.json", '{"train": {"mixed_precision": "fp16", "model": "runwayml/stable-diffusion-v1-5"}}')
    script = _write(tmp_path, "train.sh", """
        #!/bin/bash
        P="$(dirname "$0")/params.json"
        MODEL=$(yq -r '.train.model' "$P")
        MP=$(yq e '.train.mixed_precision' "$P")
        accelerate launch train_dreambooth.py --pretrained_model_name_or_path $MODEL --instance_data_dir data \\
          --instance_prompt "a photo" --resolution 512 --train_batch_size 1 --mixed_precision $MP \\
          --enable_xformers_memory_efficient_attention
    """)
    assert _read(script) == (["xformers"], "float16")


def test_a_function_appending_to_the_launchers_array_keeps_the_array(tmp_path):
    """A function that appends to an array of the script leaves the whole array (as bash keeps it), not its append."""
    script = _write(tmp_path, "train.sh", """
        #!/bin/bash
        OPTS=(--mixed_precision fp16 --resolution 512 --train_batch_size 1)
        add_opt() {
            OPTS+=("$1")
        }
        add_opt --enable_xformers_memory_efficient_attention
        accelerate launch train_text_to_image.py --pretrained_model_name_or_path runwayml/stable-diffusion-v1-5 \\
          --train_data_dir data "${OPTS[@]}"
    """)
    assert _read(script) == (["xformers"], "float16")


def test_the_echo_group_inside_a_main_function(tmp_path):
    """The same launcher with its body in `main() { ... }` run as `main "$@"` (a style guide's layout): the script's
    own arguments are the function's, and the `$1` of the functions main defines stays theirs."""
    text = _ECHO_LAUNCHER.format(attn="fa2", half="true", fn="yaml_bool", prec="bf16", open="{", close="} >",
                                 attn_line='    echo "flash_attn: $ATTN"')
    head, body = text.lstrip("\n").split("\n", 1)
    script = _write(tmp_path, "scripts/train_lf.sh", f"{head}\nmain() {{\n{body}\n}}\nmain \"$@\"\n")
    assert _read(script) == (["fa2"], "bfloat16")
