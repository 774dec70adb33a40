"""Issue 24, helper cfg89 (session 21): LLM scripts whose settings travel through functions (round 82m's MaxLSB
sft.py and SujitRoy run_sft.py, read after its measurement), fixed for their mechanism.

1. A value handed to a function's parameter where the script calls it (`train(load_settings(opts.config))`, then
   `build_args(conf)` inside train) is read through that parameter, by position or keyword, one level down or more when
   each level passes it on; calls that hand different values leave it unknown (pyscript.script_constants.
   _passed_arguments; the load itself: settings_files._loaded_files).
2. An if / elif / else chain inside a function that binds a dtype or an attention name over values known here (the
   loaded settings file's, a constant) reads the branch taken; a test the GPU answers (`torch.cuda.is_bf16_supported()`)
   leaves the name unknown, never the first branch (script_constants._settled_in_functions). A fallback that rebinds a
   pair (`use_bf16, use_fp16 = False, True` under such a test) counts as a second binding.
3. `**{k: v for k, v in D.items() if k in KEYS}` over a known mapping spreads the keys KEYS (a set written out) keeps,
   `not in` the others; any other condition leaves the spread opaque (call_keywords._signature_filtered, _key_set).
Every file here is written by cfg89 for these tests."""

from __future__ import annotations

from configs_corpus import put as _put, trainer_reading as _read  # (one copy of each helper)

# a user's TRL script (written for these tests): its settings file loaded in main() and handed down; {…} slots vary
_SCRIPT = '''import argparse
import torch
import yaml
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer


def read_settings(path):
    with open(path) as fh:
        return yaml.safe_load(fh)


def make_args(conf):
    opt = conf["optim"]
    return SFTConfig(output_dir="out", {switches})


def fit(conf):
    model = AutoModelForCausalLM.from_pretrained(conf["base"])
    SFTTrainer(model=model, args=make_args(conf)).train()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settings", default="conf/run.yaml")
    opts = ap.parse_args()
    {call}


if __name__ == "__main__":
    main()
'''
_YAML = "base: some/model\nprecision: {precision}\nattention: {attention}\noptim:\n  lr: 1.0e-4\n  bf16: {bf16}\n" \
        "  fp16: {fp16}\n"
_SWITCHES = 'bf16=opt["bf16"], fp16=opt["fp16"]'


def _yaml(tmp_path, rel="conf/run.yaml", precision="bf16", attention="flash", bf16="true", fp16="false"):
    return _put(tmp_path, rel, _YAML.format(precision=precision, attention=attention, bf16=bf16, fp16=fp16))


def _script(tmp_path, call="fit(read_settings(opts.settings))", switches=_SWITCHES, text=None):
    return _put(tmp_path, "tools/train_lm.py", text or _SCRIPT.format(call=call, switches=switches))


# -- 1. a parameter read through the value its one call hands it ---------------------------------------------------------


def test_a_load_handed_to_a_parameter_is_read_two_levels_down(tmp_path):
    """`fit(read_settings(opts.settings))`, fit(conf) calls make_args(conf): the YAML's bf16 true reaches SFTConfig
    (before cfg89: conf unknown, the switches unknown, dtype None)."""
    _yaml(tmp_path)
    assert _read(_script(tmp_path)) == ("transformers", [], "bfloat16")


def test_the_same_handed_by_keyword_and_renamed_on_the_way(tmp_path):
    """`fit(conf=...)` by keyword, and make_args's parameter spelt `c` (fit passes `conf` to it): fp16 read."""
    _yaml(tmp_path, bf16="false", fp16="true")
    text = _SCRIPT.format(call="fit(conf=read_settings(opts.settings))", switches=_SWITCHES) \
        .replace("def make_args(conf):\n    opt = conf[", "def make_args(c):\n    opt = c[")
    assert "def make_args(c):" in text
    assert _read(_script(tmp_path, text=text)) == ("transformers", [], "float16")


def test_calls_handing_different_files_leave_the_parameter_unknown(tmp_path):
    """fit called with two different loads (an fp16 file and a bf16 one): which one a run takes is not known here, so
    neither is its precision (None), not the first call's."""
    _yaml(tmp_path, bf16="false", fp16="true")
    _yaml(tmp_path, "conf/other.yaml", bf16="true", fp16="false")
    call = 'fit(read_settings(opts.settings))\n    fit(read_settings("conf/other.yaml"))'
    assert _read(_script(tmp_path, call=call)) == ("transformers", [], None)


def test_a_parameter_bound_again_inside_is_not_the_callers_value(tmp_path):
    """`conf = {...}` rebinding the parameter in fit: the handed load is not what make_args sees (unknown, None)."""
    _yaml(tmp_path)
    text = _SCRIPT.format(call="fit(read_settings(opts.settings))", switches=_SWITCHES).replace(
        "def fit(conf):\n", "def fit(conf):\n    if not conf:\n        conf = {\"optim\": {}}\n")
    assert _read(_script(tmp_path, text=text)) == ("transformers", [], None)


# -- 2. an if / elif chain in a function over the loaded file ------------------------------------------------------------

# the entry point of the scripts below: run() on the --config option's default file
_MAIN = '''

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="conf/run.yaml")
    args = ap.parse_args()
    run(args.config)
'''
_CHAIN = '''import argparse
import torch
import yaml
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def run(path):
    with open(path) as fh:
        cfg = yaml.safe_load(fh)
    {first}
        dtype = torch.bfloat16
    elif cfg["precision"] == "fp16":
        dtype = torch.float16
    else:
        dtype = torch.float32
    if cfg.get("attention") == "flash":
        attn = "flash_attention_2"
    else:
        attn = "sdpa"
    model = AutoModelForCausalLM.from_pretrained(cfg["base"], torch_dtype=dtype, attn_implementation=attn)
    Trainer(model=model, args=TrainingArguments(output_dir="out")).train()
''' + _MAIN


def _chain(tmp_path, first='if cfg["precision"] == "bf16":', **yaml):
    _yaml(tmp_path, **yaml)
    return _put(tmp_path, "tools/train_lm.py", _CHAIN.format(first=first))


def test_an_elif_chain_over_the_loaded_file_reads_the_branch_taken(tmp_path):
    """precision fp16, attention flash in the YAML: the elif's torch.float16 and the if's flash_attention_2 (before cfg89:
    both names bound in branches, unknown: no required backend, dtype None)."""
    assert _read(_chain(tmp_path, precision="fp16")) == ("transformers", ["fa2"], "float16")


def test_the_else_branch_and_the_first_branch_are_read_as_well(tmp_path):
    assert _read(_chain(tmp_path, precision="fp32", attention="eager")) == ("transformers", ["sdpa"], "float32")
    assert _read(_chain(tmp_path, precision="bf16")) == ("transformers", ["fa2"], "bfloat16")


def test_a_chain_the_gpu_decides_stays_unknown_never_its_first_branch(tmp_path):
    """`if torch.cuda.is_bf16_supported():` first: the GPU's answer decides, so the dtype is unknown (None), neither
    the bf16 branch nor the file's fp16 one; the attention chain over the file is still read."""
    got = _read(_chain(tmp_path, first="if torch.cuda.is_bf16_supported():", precision="fp16"))
    assert got == ("transformers", ["fa2"], None)


def test_a_test_over_a_parameter_the_calls_disagree_on_stays_unknown(tmp_path):
    """The chain tests a parameter (`mode`) that two calls hand different values: not settled (None), though the file
    says fp16."""
    text = _CHAIN.format(first='if mode == "bf16":').replace("def run(path):", "def run(path, mode):").replace(
        "    run(args.config)", '    run(args.config, "bf16")\n    run(args.config, "fp16")')
    _yaml(tmp_path, precision="fp16")
    assert _read(_put(tmp_path, "tools/train_lm.py", text)) == ("transformers", ["fa2"], None)


def test_a_fallback_rebinding_the_switch_pair_under_the_gpu_test_leaves_the_precision_unknown(tmp_path):
    """`use_bf16 = bool(opt["bf16"])` then `if use_bf16 and not torch.cuda.is_bf16_supported(): use_bf16, use_fp16 =
    False, True` (round 82m's MaxLSB fallback, written anew): bf16 or fp16 as the GPU answers, so unknown (before cfg89:
    the pair's rebinding unseen, bf16 read as the file's true)."""
    _yaml(tmp_path)
    text = _SCRIPT.format(call="fit(read_settings(opts.settings))", switches="bf16=use_bf16, fp16=use_fp16").replace(
        '    opt = conf["optim"]\n',
        '    opt = conf["optim"]\n    use_bf16 = bool(opt["bf16"])\n    use_fp16 = bool(opt["fp16"])\n'
        '    if use_bf16 and not torch.cuda.is_bf16_supported():\n        use_bf16, use_fp16 = False, True\n')
    assert _read(_script(tmp_path, text=text)) == ("transformers", [], None)
    # without the fallback the file's bf16 is read (the test above is not vacuous)
    text = text.replace("        use_bf16, use_fp16 = False, True\n", "        print('no bf16')\n")
    assert _read(_script(tmp_path, text=text)) == ("transformers", [], "bfloat16")


# -- 3. a spread of a comprehension keeping some keys of the loaded file -------------------------------------------------


def _spread(tmp_path, cond, after="", **yaml):
    _yaml(tmp_path, **yaml)
    text = _SCRIPT.format(call="fit(read_settings(opts.settings))", switches="**kw").replace(
        '    return SFTConfig(output_dir="out", **kw)',
        f'    kw = {{k: v for k, v in opt.items() if {cond}}}\n{after}    return SFTConfig(output_dir="out", **kw)')
    return _script(tmp_path, text=text)


def test_a_comprehension_keeping_a_written_key_set_spreads_those_keys(tmp_path):
    """`if k in {"lr", "fp16"}` of a file with fp16 true: SFTConfig gets fp16 (before cfg89: the spread opaque, None)."""
    got = _read(_spread(tmp_path, 'k in {"lr", "fp16"}', bf16="false", fp16="true"))
    assert got == ("transformers", [], "float16")


def test_a_not_in_test_drops_the_keys_it_names_and_a_key_set_after_wins(tmp_path):
    """`if k not in ("bf16",)` drops the file's bf16 true, keeping its fp16 true; a name holding the set works too, and
    a key the script sets on the dict afterwards (`kw["fp16"] = False`) is what the call sees last."""
    got = _read(_spread(tmp_path, 'k not in ("bf16",)', bf16="true", fp16="true"))
    assert got == ("transformers", [], "float16")
    after = '    kw["fp16"] = False\n    kw["bf16"] = True\n'
    path = _spread(tmp_path, "k in KEPT", after=after, bf16="false", fp16="true")
    path.write_text('KEPT = ["lr", "fp16"]\n' + path.read_text(), encoding="utf-8")
    assert _read(path) == ("transformers", [], "bfloat16")


def test_a_comprehension_with_another_condition_stays_opaque(tmp_path):
    """`if not k.startswith("_")`: which keys it keeps is not read, so the spread may set bf16 / fp16: unknown (None),
    not TRL's default nor the file's bf16."""
    assert _read(_spread(tmp_path, 'not k.startswith("_")')) == ("transformers", [], None)


_KEYED = '''import argparse
import yaml
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def run(path):
    with open(path) as fh:
        cfg = yaml.safe_load(fh)
    load_kw = dict(low_cpu_mem_usage=True)
    if cfg.get("attention"):
        load_kw["attn_implementation"] = cfg["attention"]
    model = AutoModelForCausalLM.from_pretrained(cfg["base"], **load_kw)
    Trainer(model=model, args=TrainingArguments(output_dir="out")).train()
''' + _MAIN


def test_a_key_set_on_a_dict_in_the_branch_the_file_takes_is_spread(tmp_path):
    """`if cfg.get("attention"): load_kw["attn_implementation"] = cfg["attention"]` (round 82m's MaxLSB load_model,
    written anew): with the file's flash_attention_2 the key is set and spread (before cfg89: a set under an `if` left
    out, nothing required); with the file's `attention: null` it is not."""
    script = _put(tmp_path, "tools/train_lm.py", _KEYED)
    _yaml(tmp_path, attention="flash_attention_2")
    assert _read(script) == ("transformers", ["fa2"], None)
    _yaml(tmp_path, attention="null")
    assert _read(script) == ("transformers", [], None)


def test_a_name_the_chain_settles_but_another_function_binds_too_stays_unknown(tmp_path):
    """`dtype = torch.float32` in a second function beside run's settled chain: which binding the model load sees is
    not modelled, so the dtype stays unknown (None) rather than either one."""
    text = _CHAIN.format(first='if cfg["precision"] == "bf16":').replace(
        "\n\nif __name__", "\n\ndef evaluate():\n    dtype = torch.float32\n    return dtype\n\n\nif __name__")
    _yaml(tmp_path, precision="fp16")
    assert _read(_put(tmp_path, "tools/train_lm.py", text)) == ("transformers", ["fa2"], None)


def test_a_kept_key_comprehension_over_a_file_not_here_stays_opaque_with_keys_set_after(tmp_path):
    """The file the comprehension filters is not here, and the script sets `kw["output_dir"]` after it: the spread may
    still set bf16 / fp16, so TRL's own bf16 default (the `dtype=` keyword dates it >= 0.19) is not the run's: unknown
    (None), as a `**spread` of an unread file is."""
    path = _spread(tmp_path, 'k in {"bf16", "fp16"}', after='    kw["output_dir"] = "out2"\n')
    (tmp_path / "conf/run.yaml").unlink()
    path.write_text(path.read_text().replace('from_pretrained(conf["base"])', 'from_pretrained(conf["base"], '
                                                                            'dtype="auto")'), encoding="utf-8")
    assert 'dtype="auto"' in path.read_text()
    assert _read(path) == ("transformers", [], None)


def test_a_variable_the_script_exports_from_its_own_read_does_not_loop(tmp_path):
    """`ENTITY = os.environ.get("WANDB_ENTITY")` then `os.environ["WANDB_ENTITY"] = ENTITY` names itself; the settled
    pass over a function's `if`s reads it (round 11's OrlandoWhite88 unsloth_sft.py): before the bound in values.value
    the reading recursed until it was refused as "too deeply nested"; now the file reads as it did."""
    text = _CHAIN.format(first='if cfg["precision"] == "bf16":').replace(
        "\n\ndef run(path):\n", '\nENTITY = os.environ.get("WANDB_ENTITY")\nif ENTITY:\n'
        '    os.environ["WANDB_ENTITY"] = ENTITY\n\n\ndef run(path):\n    if ENTITY:\n        print(ENTITY)\n') \
        .replace("import argparse\n", "import argparse\nimport os\n")
    _yaml(tmp_path, precision="fp16")
    assert "os.environ[" in text
    assert _read(_put(tmp_path, "tools/train_lm.py", text)) == ("transformers", ["fa2"], "float16")
