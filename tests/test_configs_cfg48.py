"""Issue 24, helper cfg48 (session 11): what round 47m showed once it became training material.

Round 47m's LennoxC `gemma3_finetune.py` (a user's accelerate loop over a transformers Gemma-3 model, labelled
transformers by the convention of round 6a / cfg44: t10_accelerate_loop) was refused as "a script of DeepSpeed
(imports deepspeed)": it imports deepspeed only for `deepspeed.zero.GatheredParameters`, to gather ZeRO-3 shards before
saving the LoRA weights, while accelerate's loop trains. Its launcher `launch.sh` was refused with it (repo layout).

The mechanism (others._ENGINE_CALLS / _engine_used): DeepSpeed is the run's framework only where the script hands its
model to DeepSpeed's engine, `deepspeed.initialize` (deepspeed/__init__.py:93 of deepspeedai/DeepSpeed, returning the
engine "which wraps the client model for distributed training") or `init_inference` (:328), under whatever name it was
imported as; zero.Init, zero.GatheredParameters (deepspeed/runtime/zero/__init__.py:8-9), DeepSpeedCPUAdam and
init_distributed are helpers any loop uses. Every variant below is synthetic, written here, not taken from any
repository: near misses both ways (helpers only → transformers; the engine under any spelling → refused as DeepSpeed's).
"""

from __future__ import annotations

import textwrap

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

_MODEL = """
model = AutoModelForCausalLM.from_pretrained(
    "Qwen/Qwen2.5-1.5B", attn_implementation="flash_attention_2", torch_dtype=torch.bfloat16)
"""

# helpers of DeepSpeed beside a loop that is not DeepSpeed's engine: transformers' run (fa2 from attn_implementation)
HELPERS = {
    "gathered_accelerate": """
        import torch
        import deepspeed
        from accelerate import Accelerator
        from transformers import AutoModelForCausalLM, AutoModelForImageTextToText
        acc = Accelerator(mixed_precision="bf16")
        {model}
        opt = torch.optim.AdamW(model.parameters())
        model, opt = acc.prepare(model, opt)
        for batch in []:
            acc.backward(model(**batch).loss)
            opt.step()
        with deepspeed.zero.GatheredParameters(list(model.parameters())):
            model.save_pretrained("out")
        """,
    "zero_init_alias": """
        import torch
        import deepspeed as ds
        from transformers import AutoModelForCausalLM
        with ds.zero.Init():
            {model}
        opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
        for batch in []:
            model(**batch).loss.backward()
            opt.step()
        """,
    "cpu_adam": """
        import torch
        from deepspeed.ops.adam import DeepSpeedCPUAdam
        from transformers import AutoModelForCausalLM
        {model}
        opt = DeepSpeedCPUAdam(model.parameters(), lr=2e-5)
        for step, batch in enumerate([]):
            loss = model(**batch).loss
            loss.backward()
            opt.step()
            opt.zero_grad()
        """,
    "from_zero_import": """
        import torch
        from deepspeed import zero
        from deepspeed.utils import zero_to_fp32
        from transformers import AutoModelForCausalLM
        from accelerate import Accelerator
        accelerator = Accelerator()
        {model}
        model = accelerator.prepare(model)
        with zero.GatheredParameters(model.parameters()):
            pass
        """,
    "init_distributed_only": """
        import torch
        import deepspeed
        from transformers import AutoModelForCausalLM
        deepspeed.init_distributed()
        {model}
        model = torch.nn.parallel.DistributedDataParallel(model)
        optimizer = torch.optim.AdamW(model.parameters())
        # engine.initialize() is not called here; self.initialize() is a method of the user's own class
        class Runner:
            def initialize(self):
                return None
        Runner().initialize()
        """,
}

# the script hands its model to DeepSpeed's engine: DeepSpeed's run, refused as such
ENGINE = {
    "initialize": """
        import torch
        import deepspeed
        from transformers import AutoModelForCausalLM
        {model}
        engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                       config="ds_config.json")
        for batch in []:
            loss = engine(**batch).loss
            engine.backward(loss)
            engine.step()
        """,
    "initialize_alias": """
        import torch
        import deepspeed as dspeed
        from transformers import AutoModelForCausalLM
        {model}
        model_engine, *_ = dspeed.initialize(args=None, model=model, config={{"train_batch_size": 8}})
        """,
    "initialize_imported_as": """
        import torch
        from deepspeed import initialize as ds_init
        from transformers import AutoModelForCausalLM
        {model}
        engine = ds_init(model=model, config="zero3.json")[0]
        """,
    "initialize_parenthesised": """
        import torch
        from deepspeed import (
            zero,
            initialize,
        )
        from transformers import AutoModelForCausalLM
        with zero.Init():
            {model}
        engine, _, _, _ = initialize(model=model, config="ds.json")
        """,
    "init_inference": """
        import torch
        import deepspeed
        from transformers import AutoModelForCausalLM
        {model}
        model = deepspeed.init_inference(model, tensor_parallel={{"tp_size": 2}}, dtype=torch.bfloat16)
        """,
}


def _write(tmp_path, name: str, body: str, model: str = _MODEL):
    """The variant's text, the model load put where `{model}` stands at that line's indent."""
    lines = []
    for line in textwrap.dedent(body).splitlines():
        if line.strip() == "{model}":
            lines += [line[:len(line) - len(line.lstrip())] + m for m in model.strip("\n").splitlines()]
        else:
            lines.append(line.replace("{{", "{").replace("}}", "}"))
    text = "\n".join(lines).lstrip("\n") + "\n"
    p = tmp_path / f"{name}.py"
    p.write_text(text)
    compile(text, str(p), "exec")  # every variant is valid Python
    return p


# the helpers' variants that train in a loop of their own (a backward pass, an optimiser's step): since session 18
# (cfg74, the blind rounds' convention) a user's own loop over a transformers model is refused as one, not as
# DeepSpeed's; `--trainer transformers` reads it
OWN_LOOPS = {"gathered_accelerate", "zero_init_alias", "cpu_adam"}


@pytest.mark.parametrize("name", sorted(HELPERS))
def test_deepspeed_helpers_leave_the_loop_transformers(tmp_path, name):
    path = str(_write(tmp_path, name, HELPERS[name]))
    if name in OWN_LOOPS:
        with pytest.raises(UsageError, match="a training loop of the user's own over a transformers model") as err:
            configs.load(path)
        assert "DeepSpeed" not in str(err.value) and "attn-doctor check --require fa2" in str(err.value)
        cfg = configs.load(path, "transformers")
    else:
        cfg = configs.load(path)
    assert cfg["detected"]["trainer"] == "transformers"
    assert cfg["required"] == ["fa2"]


@pytest.mark.parametrize("name", sorted(ENGINE))
def test_deepspeed_engine_is_deepspeeds_run(tmp_path, name):
    # (the inference engine alone, with no backward pass, serves the model: refused as that, cfg111)
    words = r"a DeepSpeed inference script" if name == "init_inference" else r"DeepSpeed \(imports deepspeed"
    with pytest.raises(UsageError, match=words):
        configs.load(str(_write(tmp_path, name, ENGINE[name])))


def test_helpers_without_a_transformers_model_stay_refused(tmp_path):
    """No transformers model, no trainer: a helper import of deepspeed makes nothing claimable (the boundary)."""
    p = tmp_path / "own_net.py"
    p.write_text("import torch\nimport deepspeed\n\nnet = torch.nn.Linear(8, 8)\n"
                 "with deepspeed.zero.GatheredParameters(list(net.parameters())):\n    torch.save(net.state_dict(), 'n.pt')\n")
    with pytest.raises(UsageError):
        configs.load(str(p))


def test_launcher_reads_through_the_script_beside(tmp_path):
    """round 47m's launch.sh shape (`accelerate launch --config_file ./x.yaml ./script.py`), with the helper-only
    script beside it: read through that script, bfloat16 from its weights and Accelerator(mixed_precision="bf16")."""
    _write(tmp_path, "finetune_vlm", HELPERS["gathered_accelerate"],
           model='model = AutoModelForImageTextToText.from_pretrained("google/gemma-3-4b-it", torch_dtype=torch.bfloat16)')
    (tmp_path / "ac.yaml").write_text("compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\n"
                                      "mixed_precision: bf16\nnum_processes: 2\n")
    sh = tmp_path / "go.sh"
    sh.write_text('#!/bin/bash\nexport "RUN=$1"\naccelerate launch --config_file ./ac.yaml ./finetune_vlm.py')
    # since session 18 (cfg74) the script, a user's own accelerate loop, is refused as one, and the launch with it,
    # naming the script (not DeepSpeed)
    with pytest.raises(UsageError, match="finetune_vlm.py") as err:
        configs.load(str(sh))
    assert "DeepSpeed" not in str(err.value)
    cfg = configs.load(str(tmp_path / "finetune_vlm.py"), "transformers")
    assert cfg["required"] == []
    assert cfg["dtype"] == "bfloat16"


def test_engine_names_elsewhere_are_not_the_engine():
    from attn_doctor.configs.others import _engine_used

    assert not _engine_used("import deepspeed\nself.initialize()\nrunner.initialize(x)\n", "deepspeed")
    assert not _engine_used("import deepspeed\nfoo.deepspeed.initialize(x)\n", "deepspeed")
    assert not _engine_used("from deepspeed import zero\ninitialize(x)\n", "deepspeed")  # a name of its own
    assert _engine_used("import deepspeed\ne = deepspeed.initialize (model=m)\n", "deepspeed")
    assert _engine_used("from deepspeed import init_inference\nm = init_inference(m)\n", "deepspeed")
