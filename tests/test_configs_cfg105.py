"""Issue 24, helper cfg105 (session 25): scripts of post-training compression libraries are not transformers' runs.

Round 105 (fixtures/configs/round105/, the frameworks' own example folders) had 8 of 70 files read as transformers:
llm-compressor's `oneshot` examples, NVIDIA Model Optimizer's `mts.sparsify` example, Optimum Quanto's
`QuantizedModelForCausalLM.quantize` example, AutoGPTQ's and AutoAWQ's quantization examples. Each loads a model (through
transformers' AutoModelForCausalLM, or through the library's own AutoGPTQForCausalLM / AutoAWQForCausalLM, whose task-head
names the transformers reader took for transformers' classes) and hands it to the library's own engine, which
calibrates and quantizes it: no transformers Trainer's run, as a model that a framework's own loop trains is not
(hf_transformers._score: "there only a transformers / TRL trainer configured counts").

The mechanism (others._PY_FRAMEWORKS, _ENGINE_CALLS / _engine_used): the compression libraries are frameworks a script
imports; those with many helpers (llm-compressor, Model Optimizer) count only where the script calls their engine
(oneshot / Oneshot / model_free_ptq; quantize / calibrate / auto_quantize / sparsify), under any name and through the
package's modules (`import modelopt.torch.quantization as mtq`, `from llmcompressor.entrypoints import oneshot`). A
transformers Trainer configured in the same script is still transformers' run. Every variant below is synthetic,
written here (none is a file of round 105): each engine variant fails without the change (checked at the session's
start code: read as transformers, but GPTQModel's, refused before in other words, "no trainer calls").
"""

from __future__ import annotations

import textwrap

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

_LOAD = 'model = AutoModelForCausalLM.from_pretrained("org/lm-7b", torch_dtype=torch.bfloat16)\n'

# (script, the framework the refusal names)
ENGINES = {
    "llmcompressor_entrypoints_module": ("""
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
        from llmcompressor.entrypoints import oneshot
        from llmcompressor.modifiers.quantization import QuantizationModifier
        {load}
        oneshot(model=model, recipe=QuantizationModifier(targets="Linear", scheme="FP8_DYNAMIC"), output_dir="out")
        """, "LLM Compressor"),
    "llmcompressor_class_alias": ("""
        import torch
        import llmcompressor as lc
        from transformers import AutoModelForCausalLM
        {load}
        lc.Oneshot(model=model, recipe="recipe.yaml")()
        """, "LLM Compressor"),
    "modelopt_quantize_alias": ("""
        import torch
        from transformers import AutoModelForCausalLM
        import modelopt.torch.quantization as mtq
        {load}
        def loop(m):
            for batch in []:
                m(**batch)
        model = mtq.quantize(model, mtq.NVFP4_DEFAULT_CFG, forward_loop=loop)
        """, "NVIDIA Model Optimizer"),
    "modelopt_sparsify_dotted": ("""
        import torch
        import modelopt.torch.sparsity
        from transformers import AutoModelForCausalLM
        {load}
        model = modelopt.torch.sparsity.sparsify(model, "sparsegpt", config={{"data_loader": []}})
        """, "NVIDIA Model Optimizer"),
    "quanto_quantize_function": ("""
        import torch
        from transformers import AutoModelForCausalLM
        from optimum.quanto import freeze, qint4, quantize
        {load}
        quantize(model, weights=qint4)
        freeze(model)
        """, "Optimum Quanto"),
    "gptqmodel_wrapper": ("""
        from gptqmodel import GPTQModel, QuantizeConfig
        model = GPTQModel.load("org/lm-7b", QuantizeConfig(bits=4, group_size=128))
        model.quantize([], batch_size=1)
        """, "GPTQModel"),
    "autogptq_task_head_name": ("""
        from transformers import AutoTokenizer
        from auto_gptq import AutoGPTQForCausalLM, BaseQuantizeConfig
        tok = AutoTokenizer.from_pretrained("org/lm-7b")
        model = AutoGPTQForCausalLM.from_pretrained("org/lm-7b", BaseQuantizeConfig(bits=4))
        model.quantize([tok("text")])
        """, "AutoGPTQ"),
    "awq_task_head_name": ("""
        from awq import AutoAWQForCausalLM
        from transformers import AutoTokenizer
        model = AutoAWQForCausalLM.from_pretrained("org/lm-7b")
        model.quantize(AutoTokenizer.from_pretrained("org/lm-7b"), quant_config={{"w_bit": 4}})
        """, "AutoAWQ"),
    "autoround_over_transformers": ("""
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
        from auto_round import AutoRound
        {load}
        AutoRound(model, AutoTokenizer.from_pretrained("org/lm-7b"), bits=4).quantize()
        """, "AutoRound"),
}

# the same libraries' helpers beside a transformers run, or a transformers Trainer over the library's model: still
# transformers' (dtype from the load or the trainer's flags)
STILL_TRANSFORMERS = {
    "modelopt_export_only": """
        import torch
        from transformers import AutoModelForCausalLM
        from modelopt.torch.export import export_hf_checkpoint
        {load}
        out = model.generate(max_new_tokens=8)
        export_hf_checkpoint(model, export_dir="out")
        """,
    "llmcompressor_modifiers_only": """
        import torch
        from transformers import AutoModelForCausalLM
        from llmcompressor.modifiers.quantization import GPTQModifier
        {load}
        recipe = GPTQModifier(targets="Linear", scheme="W4A16")
        out = model.generate(max_new_tokens=8)
        """,
    "awq_model_under_transformers_trainer": """
        import torch
        from awq import AutoAWQForCausalLM
        from transformers import Trainer, TrainingArguments
        model = AutoAWQForCausalLM.from_quantized("org/lm-7b-awq")
        args = TrainingArguments(output_dir="out", bf16=True)
        Trainer(model=model.model, args=args, train_dataset=None).train()
        """,
}


def _write(tmp_path, name: str, text: str) -> str:
    p = tmp_path / f"{name}.py"
    p.write_text(textwrap.dedent(text).format(load=_LOAD), encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_a_compression_library_s_engine_is_not_a_transformers_run(tmp_path, name):
    text, framework = ENGINES[name]
    with pytest.raises(UsageError) as err:
        configs.load(_write(tmp_path, name, text))
    msg = str(err.value)
    assert "\n" not in msg and f"looks like a script of {framework} (imports " in msg, msg


@pytest.mark.parametrize("name", sorted(STILL_TRANSFORMERS))
def test_helpers_or_a_transformers_trainer_beside_them_stay_transformers(tmp_path, name):
    cfg = configs.load(_write(tmp_path, name, STILL_TRANSFORMERS[name]))
    assert cfg["detected"]["trainer"] == "transformers"
    assert cfg["dtype"] == "bfloat16"


def test_the_engine_under_the_package_s_modules():
    from attn_doctor.configs.others import _engine_used

    assert _engine_used("import modelopt.torch.quantization as mtq\nm = mtq.quantize(m, c)\n", "modelopt")
    assert _engine_used("from llmcompressor.entrypoints import oneshot as run\nrun(model=m)\n", "llmcompressor")
    assert _engine_used("import modelopt.torch.quantization\nmodelopt.torch.quantization.quantize(m, c)\n", "modelopt")
    assert not _engine_used("import modelopt.torch.export as mte\nmte.export_hf_checkpoint(m)\n", "modelopt")
    assert not _engine_used("from modelopt.torch.export import export_hf_checkpoint\nquantize(m)\n", "modelopt")
    assert not _engine_used("import modelopt.torch.quantization as mtq\nfoo.mtq.quantize(m)\n", "modelopt")
    # DeepSpeed's engine keeps its spellings (cfg48), now also through a module of its package
    assert _engine_used("from deepspeed import initialize\ne = initialize(model=m)\n", "deepspeed")
    assert not _engine_used("import deepspeed\ndeepspeed.zero.Init()\n", "deepspeed")


# Two refusals of round 105 named the wrong thing (the files were refused all the same): AutoAWQ's examples/generate.py,
# an inference script written as top-level assignments (`model = AutoAWQForCausalLM.from_quantized(...)`, `outputs =
# model.generate(...)`), was "a Python settings module"; open_lm's SageMaker cfg_sample.yaml (`precision:
# "amp_bfloat16"`, open_lm.main's own option) "looks like MosaicML LLM Foundry". Settings modules hold values, not model
# loads and runs (others._MODEL_RUNS); Composer's precision names are fp32 / amp_fp16 / amp_bf16 / amp_fp8
# (composer/core/precision.py:34-37), and amp_bfloat16 is open_lm's / OpenCLIP's alone (open_lm/params.py:493-495).
def test_assignments_that_load_and_run_a_model_are_a_script_not_settings(tmp_path):
    p = tmp_path / "infer.py"
    p.write_text(textwrap.dedent("""
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
        model_id = "org/lm-7b"
        tokenizer = AutoTokenizer.from_pretrained(model_id)
        model = AutoModelForCausalLM.from_pretrained(model_id, torch_dtype=torch.float16, device_map="auto")
        inputs = tokenizer("hello", return_tensors="pt").to("cuda")
        outputs = model.generate(**inputs, max_new_tokens=32)
        """), encoding="utf-8")
    cfg = configs.load(str(p))  # a transformers run (the model loaded and generating), not a settings module
    assert cfg["detected"]["trainer"] == "transformers" and cfg["dtype"] == "float16"
    # the same written over a library of the project's own: refused as a script, not as settings (was: settings)
    own = tmp_path / "infer_own.py"
    own.write_text(textwrap.dedent("""
        from mylm.modeling import MyLM
        from mylm.tok import load_tokenizer
        model_id = "org/lm-7b"
        tokenizer = load_tokenizer(model_id)
        model = MyLM.from_quantized(model_id, device="cuda")
        inputs = tokenizer("hello")
        outputs = model.generate(inputs, max_new_tokens=32)
        """), encoding="utf-8")
    with pytest.raises(UsageError) as err:
        configs.load(str(own))
    assert "settings module" not in str(err.value) and "no trainer calls" in str(err.value), str(err.value)
    q = tmp_path / "settings.py"
    q.write_text('MODEL_ID = "org/lm-7b"\nLR = 1e-4\nEPOCHS = 3\nBATCH = 8\nOUT = "out"\nSEED = 0\n', encoding="utf-8")
    with pytest.raises(UsageError, match="a Python settings module"):
        configs.load(str(q))


@pytest.mark.parametrize("precision, foundry", [("amp_bfloat16", False), ("amp", False), ("amp_bf16", True),
                                                ("amp_fp8", True)])
def test_llm_foundry_s_precision_is_composer_s_names(tmp_path, precision, foundry):
    p = tmp_path / "cfg.yaml"
    p.write_text(f"model: big_model_7b\nprecision: {precision}\nepochs: 4\nseed: 1\n", encoding="utf-8")
    with pytest.raises(UsageError) as err:
        configs.load(str(p))
    assert ("LLM Foundry" in str(err.value)) == foundry, str(err.value)
