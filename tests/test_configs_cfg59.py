"""Round 59 (helper cfg59): the reader changes its users' diffusion files asked for, each on variants written here.

- ai-toolkit: a script that builds the job dict, dumps it (yaml / json) to a path it holds in a variable and runs
  `python run.py <that variable>` runs that job: run.py's get_config opens a path that exists before it looks in
  config/ (toolkit/config.py), so the dumped dict is read, not config/{var}.yaml;
- a Jinja2 template of a YAML config (`*.yaml.j2`, `*.yml.jinja2`) is read as the config it renders, each whole-line
  `{{ expr }}` value a value given at run time; a template with `{% %}` blocks is still refused;
- a Python script that runs nothing and writes one trainer's config from a dict through a helper of its own
  (`def save(name, filename, cfg): f.write(toml.dumps(cfg))`, called with the training dict and the dataset's) is read
  as that config (the dataset one is no training config);
- musubi-tuner: `python -m musubi_tuner.X` for an X that is none of its entry points (a fork's GUI dashboard) is no
  evidence of a musubi-tuner run; its training modules and a fork's own *_train_network module still are."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

JOB = '''import subprocess
import {mod}

def build(name):
    return {{
        "job": "extension",
        "config": {{
            "name": name,
            "process": [{{
                "type": "diffusion_trainer",
                "model": {{"arch": "{arch}", "name_or_path": "{model}", "quantize": True}},
                "network": {{"type": "lora", "linear": 16}},
                "save": {{"dtype": "float16"}},
                "train": {{"steps": 2000, "lr": 1e-4, "dtype": "{dtype}"{extra}}},
            }}],
        }},
    }}

def main(job_id):
    {var} = f"/tmp/{{job_id}}/job.{ext}"
    with open({var}, "w") as fh:
        {dump}(build("x"), fh)
    subprocess.run([{py}, "run.py", {var}], cwd="{cwd}", check=True)
'''


def _load(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return configs.load(str(p))


@pytest.mark.parametrize("mod,dump,ext,var,py,cwd,arch,model,dtype,extra,want", [
    ("yaml", "yaml.safe_dump", "yaml", "cfg_path", '"python"', "/app/ai-toolkit", "zimage:turbo",
     "Tongyi-MAI/Z-Image-Turbo", "bf16", "", ("bfloat16", [])),
    ("yaml", "yaml.dump", "yml", "config_file", '"python3"', "/workspace/ai-toolkit", "qwen_image",
     "Qwen/Qwen-Image", "fp16", "", ("float16", [])),
    ("json", "json.dump", "json", "job_path", "sys.executable", "/opt/toolkit", "wan22_14b",
     "ai-toolkit/Wan2.2-T2V-A14B", "bf16", ', "attention_backend": "flash"', ("bfloat16", ["fa2"])),
])
def test_an_ai_toolkit_job_the_script_dumps_to_a_variable_path_is_read(tmp_path, mod, dump, ext, var, py, cwd, arch,
                                                                        model, dtype, extra, want):
    text = JOB.format(mod=mod + ("\nimport sys" if py == "sys.executable" else ""), dump=dump, ext=ext, var=var, py=py,
                      cwd=cwd, arch=arch, model=model, dtype=dtype, extra=extra)
    cfg = _load(tmp_path, "worker.py", text)
    assert cfg["trainer"] == "ai-toolkit"
    assert (cfg["dtype"], cfg["required"]) == want


def test_a_bare_job_name_the_script_does_not_write_is_still_looked_for_in_config(tmp_path):
    """`python run.py my_job` with no dict dumped: run.py's config/my_job.yaml, which is not here (unknown settings)."""
    cfg = _load(tmp_path, "launch.sh", "#!/bin/bash\ncd /app/ai-toolkit\npython run.py my_job\n")
    assert cfg["trainer"] == "ai-toolkit" and cfg["dtype"] is None
    assert any(u.startswith("config/my_job") for u in cfg.get("unread") or [])


TEMPLATE = """job: extension
config:
  name: {{{{ output_name }}}}
  process:
  - type: diffusion_trainer
    training_folder: /root/ai-toolkit/output
    device: cuda
    save:
      dtype: float16
    datasets:
    - folder_path: {{{{ dataset_path }}}}
      caption_ext: txt
      resolution:
      - {{{{ resolution }}}}
    train:
      batch_size: {{{{ batch_size }}}}
      steps: {{{{steps}}}}
      lr: {{{{ lr }}}}
{train}    model:
      name_or_path: {{{{ model_path }}}}
      arch: {arch}
"""


@pytest.mark.parametrize("name,train,arch,want", [
    ("base_config.yaml.j2", "", "zimage:turbo", "float32"),  # no train dtype: TrainConfig's default fp32
    ("job.yml.jinja2", "      dtype: bf16\n", "flux", "bfloat16"),
    ("wan.yaml.jinja", "      dtype: fp16\n", "wan22_14b", "float16"),
])
def test_a_jinja_template_of_an_ai_toolkit_job_is_read_as_the_job_it_renders(tmp_path, name, train, arch, want):
    cfg = _load(tmp_path, name, TEMPLATE.format(train=train, arch=arch))
    assert cfg["trainer"] == "ai-toolkit" and cfg["format"] == "yaml"
    assert cfg["dtype"] == want and cfg["required"] == []


def test_a_template_with_jinja_blocks_is_still_refused(tmp_path):
    text = TEMPLATE.format(train="{% if bf16 %}\n      dtype: bf16\n{% endif %}\n", arch="flux")
    with pytest.raises(UsageError):
        _load(tmp_path, "cfg.yaml.j2", text)


def test_a_template_value_stays_a_string_of_the_config(tmp_path):
    """The placeholder is quoted as it stands (no value is guessed for it): a template's `{{ steps }}` is the string
    '{{ steps }}' in the parsed job, and a `key: {{ x }} # note` line (not a whole-line value) is left as written."""
    text = configs.template_values("a: {{ x }}\n- {{ y }}\nb: {{ z }} # note\nc: '{{ q }}'\n")
    assert text == 'a: "{{ x }}"\n- "{{ y }}"\nb: {{ z }} # note\nc: \'{{ q }}\'\n'


@pytest.mark.parametrize("name,text", [
    ("run-dashboard.bat", "@echo off\ncall .venv\\Scripts\\activate.bat\npython -m musubi_tuner.gui_dashboard %*\n"),
    ("gui.sh", "#!/bin/bash\nsource venv/bin/activate\npython -m musubi_tuner.webui --port 7860\n"),
    ("start_gui.ps1", "& .\\venv\\Scripts\\Activate.ps1\npython -m musubi_tuner.gui.app --share\n"),
])
def test_a_musubi_module_that_is_no_entry_point_is_no_evidence_of_a_run(tmp_path, name, text):
    with pytest.raises(UsageError):
        _load(tmp_path, name, text)


@pytest.mark.parametrize("line,want", [
    ("accelerate launch --mixed_precision bf16 -m musubi_tuner.wan_train_network --task t2v-A14B --sdpa "
     "--mixed_precision bf16 --dit x.safetensors --dataset_config d.toml", ["sdpa"]),
    ("python -m musubi_tuner.qwen_image_train_network --xformers --mixed_precision bf16 --dit q.safetensors "
     "--dataset_config d.toml", ["xformers"]),
    ("accelerate launch -m musubi_tuner.nanosaur_train_network --sdpa --mixed_precision bf16 --dit n.safetensors "
     "--dataset_config d.toml", ["sdpa"]),
])
def test_musubi_training_modules_still_read(tmp_path, line, want):
    cfg = _load(tmp_path, "train.sh", "#!/bin/bash\n" + line + "\n")
    assert cfg["trainer"] == "musubi" and cfg["required"] == want


GEN = """import os
{imp}

config_dict = {{
    "network_arguments": {{"network_dim": 8, "network_module": "{net}"}},
    "model_settings": {{
        "{attn}": True,
        "flash3": False,
        "compile": {compile},
        "blocks_to_swap": None,
    }},
    "training_settings": {{"mixed_precision": "{mp}", "dit": "models/dit.safetensors", "fp8_base": True,
                           "gradient_checkpointing": True, "max_train_epochs": 16}},
}}
dataset_dict = {{
    "general": {{"resolution": 1024, "caption_extension": ".txt", "enable_bucket": True, "batch_size": 1}},
    "datasets": [{{"num_repeats": 8, "image_directory": "data"}}],
}}
config_dict["training_settings"]["dit"] = os.path.abspath(config_dict["training_settings"]["dit"])


def {fn}(name, filename, {param}):
    with open(filename, "w") as f:
        f.write({dumps}({param}))
    print(name, "saved to", filename)


{fn}("Train", os.path.join("out", "training_config.toml"), config_dict)
{fn}("Dataset", os.path.join("out", "dataset_config.toml"), dataset_dict)
"""


@pytest.mark.parametrize("imp,dumps,fn,param,net,attn,compile,mp,want", [
    ("import toml", "toml.dumps", "CleanConfigAndSave", "config_dict", "networks.lora_flux_2", "sdpa", "True", "bf16",
     (["sdpa"], "bfloat16", "default")),
    ("import toml", "toml.dumps", "write_cfg", "cfg", "networks.lora_wan", "xformers", "False", "fp16",
     (["xformers"], "float16", None)),
    ("import toml", "toml.dumps", "save", "d", "networks.lora_qwen_image", "flash_attn", "False", "bf16",
     (["fa2"], "bfloat16", None)),
])
def test_a_musubi_config_a_generator_writes_through_a_helper_is_read(tmp_path, imp, dumps, fn, param, net, attn,
                                                                     compile, mp, want):
    cfg = _load(tmp_path, "genconfig.py", GEN.format(imp=imp, dumps=dumps, fn=fn, param=param, net=net, attn=attn,
                                                      compile=compile, mp=mp))
    assert cfg["trainer"] == "musubi"
    assert (cfg["required"], cfg["dtype"], cfg["compile_mode"] if cfg["compile_mode"] != "none" else None) == want


def test_a_generator_that_only_writes_a_dataset_config_is_still_refused(tmp_path):
    text = GEN.format(imp="import toml", dumps="toml.dumps", fn="save", param="d", net="networks.lora_wan",
                      attn="sdpa", compile="False", mp="bf16")
    text = text.replace('save("Train", os.path.join("out", "training_config.toml"), config_dict)\n', "")
    with pytest.raises(UsageError):
        _load(tmp_path, "genconfig.py", text)
