"""cfg119 (session 28, issue 24): a settings loader class of the script's own, followed through its instance.

`cfg = ConfigLoader("configs/train.yaml")` whose __init__ parses the file its parameter names (directly, or in a method
it calls, through an attribute it set from the parameter: round 75m's longhoag src/utils/config.py), then
`cfg.settings["bf16"]` or, where the class's getter hands the key on (`return self.settings.get(key, default)`),
`cfg.get("bf16")`. Near misses: a loader whose mapping comes from the network or the environment, and a getter that
does more than hand the key on (an environment override): unknown, the getter's default not taken for the run's."""

from __future__ import annotations

import pytest

from configs_corpus import put, trainer_reading

_YAML = "model: m\nbf16: true\nattn_implementation: flash_attention_2\n"
_SCRIPT = '''
import json
import os
import urllib.request
from pathlib import Path
import yaml
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer


{cls}


def main():
    cfg = ConfigLoader({arg})
    model = AutoModelForCausalLM.from_pretrained("m", attn_implementation={attn})
    targs = TrainingArguments(output_dir="out", bf16={bf16})
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    main()
'''
# the loader parses in __init__, or in a method __init__ calls, through an attribute set from the parameter
_DIRECT = '''class ConfigLoader:
    def __init__(self, config_path, region="us-east-1"):
        self.region = region
        self.settings = yaml.safe_load(open(config_path))
'''
_METHOD = '''class ConfigLoader:
    """A loader in the manner of round 75m's longhoag ConfigLoader."""

    def __init__(self, config_path: str = "configs/train.yaml"):
        self.config_path = Path(config_path)
        self.settings = {{}}
        self._load_yaml()

    def _load_yaml(self):
        with open(self.config_path, "r") as f:
            self.settings = yaml.safe_load(f) or {{}}

    def get(self, key, default=None):
        {getter}
'''
_HANDS_ON = "return self.settings.get(key, default)"
_ENV_OVER = "return os.environ.get(key.upper(), self.settings.get(key, default))"
# near misses: the mapping is a download or an environment variable's text, not a file here
_NETWORK = '''class ConfigLoader:
    def __init__(self, url):
        self.settings = json.loads(urllib.request.urlopen(url).read())

    def get(self, key, default=None):
        return self.settings.get(key, default)
'''
_ENVIRON = '''class ConfigLoader:
    def __init__(self, name):
        self.settings = json.loads(os.environ[name])

    def get(self, key, default=None):
        return self.settings.get(key, default)
'''
_ATTR = ('cfg.settings["attn_implementation"]', 'cfg.settings["bf16"]')
_GET = ('cfg.get("attn_implementation", "sdpa")', 'cfg.get("bf16", False)')


@pytest.mark.parametrize("cls, arg, reads, reading", [
    (_DIRECT, '"configs/train.yaml"', _ATTR, ("transformers", ["fa2"], "bfloat16")),
    (_DIRECT, 'config_path="configs/train.yaml"', _ATTR, ("transformers", ["fa2"], "bfloat16")),
    (_METHOD.format(getter=_HANDS_ON), '"configs/train.yaml"', _ATTR, ("transformers", ["fa2"], "bfloat16")),
    (_METHOD.format(getter=_HANDS_ON), '"configs/train.yaml"', _GET, ("transformers", ["fa2"], "bfloat16")),
    (_METHOD.format(getter=_HANDS_ON), '', _GET, ("transformers", ["fa2"], "bfloat16")),  # (__init__'s default)
    # near misses: a getter that lets the environment override the file; a download; an environment variable
    (_METHOD.format(getter=_ENV_OVER), '"configs/train.yaml"', _GET, ("transformers", [], None)),
    (_NETWORK, '"https://config.example/train.json"', _GET, ("transformers", [], None)),
    (_ENVIRON, '"TRAIN_CONFIG"', _GET, ("transformers", [], None)),
    # a file that is not here: as a loader function's (the lookup's default is the attention's reading, round 17's
    # convention: hf_transformers._lookup_default), the file's bf16 unknown
    (_METHOD.format(getter=_HANDS_ON), '"configs/other.yaml"', _GET, ("transformers", ["sdpa"], None)),
])
def test_a_loader_class_is_read_through_its_instance(tmp_path, cls, arg, reads, reading):
    put(tmp_path, "configs/train.yaml", _YAML)
    path = put(tmp_path, "train.py", _SCRIPT.format(cls=cls, arg=arg, attn=reads[0], bf16=reads[1]))
    assert trainer_reading(path) == reading


def test_a_loader_class_of_the_user_s_own_module_is_read_through_its_instance(tmp_path):
    """The loader class imported from a module of the repository (`from src.config import ConfigLoader`), as round 75m's
    longhoag train.py imports its ConfigLoader; near miss: the same class downloading its mapping."""
    put(tmp_path, "configs/train.yaml", _YAML)
    put(tmp_path, "src/__init__.py", "")
    for cls, reading in [(_METHOD.format(getter=_HANDS_ON), ("transformers", ["fa2"], "bfloat16")),
                         (_NETWORK, ("transformers", [], None))]:
        put(tmp_path, "src/config.py", "import json\nimport urllib.request\nfrom pathlib import Path\nimport yaml\n\n\n" + cls)
        script = _SCRIPT.format(cls="from src.config import ConfigLoader", arg='"configs/train.yaml"', attn=_GET[0],
                                bf16=_GET[1])
        assert trainer_reading(put(tmp_path, "train.py", script)) == reading


_FACTORY = '''

def load_config(config_path, region="us-east-1"):
    return ConfigLoader(config_path)
'''


@pytest.mark.parametrize("where, cls, reading", [
    ("script", _METHOD.format(getter=_HANDS_ON), ("transformers", ["fa2"], "bfloat16")),
    ("module", _METHOD.format(getter=_HANDS_ON), ("transformers", ["fa2"], "bfloat16")),
    # near misses: the class the function builds downloads its mapping; a getter letting the environment override
    ("module", _NETWORK, ("transformers", [], None)),
    ("script", _METHOD.format(getter=_ENV_OVER), ("transformers", [], None)),
])
def test_a_function_returning_a_loader_instance_is_read_through_it(tmp_path, where, cls, reading):
    """`cfg = load_config(P)` of `def load_config(config_path, ...): return ConfigLoader(config_path, ...)` (round 75m's
    longhoag src/utils/config.py has that function beside its class), in the script or in a module of its repository."""
    put(tmp_path, "configs/train.yaml", _YAML)
    put(tmp_path, "src/__init__.py", "")
    head = "import json\nimport os\nimport urllib.request\nfrom pathlib import Path\nimport yaml\n\n\n"
    put(tmp_path, "src/config.py", head + cls + _FACTORY)
    script = _SCRIPT.format(cls=cls + _FACTORY if where == "script" else "from src.config import load_config",
                            arg='"configs/train.yaml"', attn=_GET[0], bf16=_GET[1]).replace("cfg = ConfigLoader(", "cfg = load_config(")
    assert trainer_reading(put(tmp_path, "train.py", script)) == reading


# a Modal app: the function Modal runs in its container is handed its parameter by `.remote(...)` / `.spawn(...)` /
# `.local(...)` (modal-labs/modal-client modal/_functions.py); its launch line then names the config the image copies in
_MODAL = '''import subprocess
from pathlib import Path

import modal

image = modal.Image.debian_slim().pip_install("axolotl").add_local_dir(Path(__file__).parent / "configs", "/root/configs")
app = modal.App("sft", image=image)


@app.function(gpu="H100", timeout=3600)
def train(config: str, run_name: str = "run"):
    subprocess.run(f"axolotl train /root/configs/{{config}} --output-dir /out/{{run_name}}", shell=True, check=True)


@app.local_entrypoint()
def main():
{calls}
'''
_AXOLOTL = "base_model: m\nflash_attention: true\nbf16: true\ndatasets:\n  - path: d\n    type: alpaca\n"
_SDPA = "base_model: m\nsdp_attention: true\nfp16: true\ndatasets:\n  - path: d\n    type: alpaca\n"


@pytest.mark.parametrize("calls, reading", [
    ('    train.remote("a.yml")', ("axolotl", ["fa2"], "bfloat16")),
    ('    train.spawn("a.yml", run_name="x").get()', ("axolotl", ["fa2"], "bfloat16")),
    ('    train.remote(config="a.yml")\n    train.local("a.yml")', ("axolotl", ["fa2"], "bfloat16")),
    # near misses: two runs of different configs (several launches, not one value); .map over a list; no call at all
    ('    train.spawn("a.yml")\n    train.spawn("b.yml")', ("axolotl", [], None)),
    ('    list(train.map(["a.yml"]))', ("axolotl", [], None)),
    ('    pass', ("axolotl", [], None)),
])
def test_a_modal_function_reads_the_arguments_its_calls_hand_it(tmp_path, calls, reading):
    put(tmp_path, "configs/a.yml", _AXOLOTL)
    put(tmp_path, "configs/b.yml", _SDPA)
    assert trainer_reading(put(tmp_path, "main.py", _MODAL.format(calls=calls))) == reading
