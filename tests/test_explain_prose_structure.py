"""The prose layer's structure (issue 23, helper ex143, session 24): a report pasted from an issue form reads past the form's
scaffolding (knowledge/match.py _form_head): its headings, checklist, fenced blocks and the sections of its environment and
boilerplate are no sentences, and the first sentence under "Describe the bug" is read as the head. A backend named only in the
form's environment (System Info, Versions, `pip list`) is the setup: the form's failure decides. Every case was written by hand
from the templates' shapes (GitHub issue forms of transformers, PyTorch, LLaMA-Factory, ComfyUI, diffusers; the older
Markdown templates; Chinese, Japanese and Korean headings), not from a round's texts; the positive cases were checked to fail
at session 24's start (69139402), the near misses to stay unclaimed there and here.
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge.match import _form_head

SYSTEM_INFO = ("- `transformers` version: 4.46.3\n- Platform: Linux-5.15.0-x86_64-with-glibc2.35\n- Python version: 3.11.9\n"
               "- PyTorch version (GPU?): 2.5.1+cu124 (True)\n- flash-attn version: 2.7.0.post2\n- xformers version: 0.0.28.post3\n"
               "- Using GPU in script?: yes\n")

FORMS = [
    # a GitHub issue form: the existing-issue checkbox, then the description's first sentence
    ("Training stops at the first step\n\n### Is there an existing issue for this?\n\n- [X] I have searched the existing "
     "issues\n\n### Describe the bug\n\nFlash attention 2 fails on the A6000 at the first backward step.\n", "fa2"),
    # transformers' form: System Info (which names two backends) first, then Who can help, then the reproduction
    ("Training stops on the second node\n\n### System Info\n\n" + SYSTEM_INFO + "\n### Who can help?\n\n@ArthurZucker\n\n"
     "### Information\n\n- [X] My own modified scripts\n\n### Reproduction\n\nSDPA fails on the second GPU of the node.\n",
     "sdpa"),
    # LLaMA-Factory's form: Reminder, a checklist, System Info, then Reproduction with a fenced command before the sentence
    ("训练报错\n\n### Reminder\n\n- [x] I have read the above rules and searched the existing issues.\n\n### System Info\n\n"
     "- `llamafactory` version: 0.9.3\n- Platform: Linux\n- Python version: 3.10.16\n- PyTorch version: 2.6.0+cu124 (GPU)\n\n"
     "### Reproduction\n\n```text\nllamafactory-cli train examples/train_lora/llama3_lora_sft.yaml\n```\n\n"
     "flash_attn 一开就报错，关掉就正常。\n", "fa2"),
    # the older Markdown template: bold headings, the template's own prompt under them kept as a sentence
    ("Crash when generating\n\n**Environment**\n - OS: Windows 11\n - GPU: RTX 3060\n\n**Describe the bug**\nxformers crashes the whole app when the batch size is above 4.\n\n"
     "**To Reproduce**\nSteps to reproduce the behavior:\n", "xformers"),
    # PyTorch's form: the emoji heading, a fenced repro, then the sentence
    ("Backward is wrong for long sequences\n\n### 🐛 Describe the bug\n\n```python\nimport torch\nout = attn(q, k, v)\n"
     "out.sum().backward()\n```\n\nflex attention gives wrong gradients when the sequence is 4097 long.\n\n### Versions\n\n"
     "PyTorch version: 2.6.0\n", "flex"),
    # a bilingual Chinese form heading, the environment section first
    ("推理失败\n\n### 环境信息 | Environment\n\nCUDA 12.4, torch 2.5.1, xformers 0.0.28\n\n### 当前行为 | Current Behavior\n\n"
     "sageattention 一直报错，换成 sdpa 就可以。\n", "sage"),
    # a Japanese heading over the sentence
    ("生成が止まる\n\n## 環境\n\n- GPU: RTX 4090\n- torch 2.4\n\n## 問題\n\nSageAttention を有効にすると毎回クラッシュします。\n",
     "sage"),
    # ComfyUI's form: the title, a heading, the expected behaviour (boilerplate: blank), then what happened
    ("KSampler stops\n\n### Expected Behavior\n\nThe image is generated.\n\n### Actual Behavior\n\n"
     "Sage attention stopped working with Wan 2.1 after the update.\n", "sage"),
]


@pytest.mark.parametrize("text,backend", FORMS, ids=[f"{i}" for i in range(len(FORMS))])
def test_the_first_sentence_of_an_issue_form_is_its_head(text, backend):
    found = match(text)
    assert found and found[0].backend == backend, [(m.entry.id, m.backend) for m in found]


# filled-in bug templates whose environment names flash-attn / xformers / SDPA and whose failure is another program's
NEAR_MISSES = [
    "Dataset fails to load\n\n### System Info\n\n" + SYSTEM_INFO + "\n### Reproduction\n\nThe dataset fails to load with a "
    "KeyError on 'messages'.\n",
    "Tokenizer error\n\n### System Info\n\n" + SYSTEM_INFO + "\n### Describe the bug\n\nThe tokenizer fails on the chat "
    "template.\n",
    "Can't download the model\n\n### Is there an existing issue for this?\n\n- [X] I have searched the existing issues\n\n"
    "### Environment\n\nflash-attn 2.6.3, xformers 0.0.27, torch 2.4.0\n\n### Describe the bug\n\nThe download fails at 40% "
    "with a connection reset.\n",
    "CUDA driver too old\n\n### Your current environment\n\n```text\nPyTorch version: 2.5.1\nflash_attn: 2.7.0.post2\n"
    "Nvidia driver version: 470.57\n```\n\n### 🐛 Describe the bug\n\nThe NVIDIA driver on your system is too old.\n",
    "Training crashes\n\n**Environment**\nxformers 0.0.28 fails to build on Windows before, now installed fine\n\n"
    "**Describe the bug**\nThe dataloader worker is killed by signal 9 after 200 steps.\n",
    "数据加载报错\n\n### 环境 | Environment\n\nflash-attn 2.7.3 安装失败过一次，现已正常\n\n### 当前行为 | Current Behavior\n\n"
    "数据集加载失败，找不到 train.jsonl。\n",
    "Loss is flat\n\n### System Info\n\nsdpa: on\nflash attention 2: not installed\n\n### Reproduction\n\nAfter 3 epochs the "
    "loss is flat; my labels are wrong.\n",
    "Webui won't start\n\n### Checklist\n\n- [x] The issue exists after disabling all extensions\n- [x] xformers is not the "
    "problem: it fails without it too\n\n### What happened?\n\nThe model download from the hub fails with a 401.\n",
    "Docs typo\n\n### Describe the bug\n\nThe README says `pip install flash-attn==1.0.4` where it means a version of the "
    "tokenizer package.\n\n### Expected behavior\n\nflash attention installs and works.\n",
    "Out of disk\n\n### Versions\n\nxformers 0.0.20 (broken build on my other machine)\n\n### Describe the bug\n\nSaving the "
    "checkpoint fails: No space left on device.\n",
    "Driver error\n\n## 環境\n\n- flash-attn 2.5.8 (ビルドに失敗したことがある)\n\n## 問題\n\nドライバーのエラーで起動しません。\n",
    "Segfault in the image loader\n\n### Environment\n\n- xformers 0.0.28 crashes? no, checked\n\n### Describe the bug\n\n"
    "PIL segfaults on a corrupt PNG in the dataset.\n",
]


@pytest.mark.parametrize("text", NEAR_MISSES, ids=[f"{i}" for i in range(len(NEAR_MISSES))])
def test_a_backend_in_a_forms_environment_is_the_setup(text):
    assert [(f.entry.id, f.backend) for f in match(text) if f.entry.id.startswith("prose.")] == []


def test_the_form_head_keeps_line_numbers_and_blanks_the_scaffolding():
    text = ("Title\n\n### System Info\n\nflash-attn 2.7\n\n### Describe the bug\n\n```\nlog line\n```\n\nFirst sentence.\n"
            "Second.\nThird.\nFourth.\nFifth.\n").encode()
    held, view, n = _form_head(text)
    assert 5 in held and 3 not in held and 13 not in held  # the environment's lines: no failure in the ordinary head either
    rows = view.split(b"\n")
    assert len(rows) == n and rows[0] == b"Title"
    assert rows[4] == b"" and rows[9] == b""  # the environment and the fenced log: blank, in place
    assert rows[12] == b"First sentence." and rows[-1] == b"Fourth."  # the head: HEAD_LINES lines that say something


def test_a_script_or_readme_is_no_form():
    # a pasted script's comments and a README's title are headings of no form: the ordinary head only
    assert _form_head(b"# coding: utf-8\n# train with flash attention\nimport torch\n") is None
    assert _form_head(b"# MyModel\n\nA model that uses xformers.\n") is None
    assert _form_head(b"Title\n\n### Describe the bug\n\nIt fails.\n") is not None


def test_the_structure_count_classes_a_miss_by_rule():
    # benchmarks/explain_prose_structure.py: one class per prose miss, from the prose layer's own macros
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import explain_prose_structure as s
    B, FAILW = s.macros()
    cases = [
        ("Install flash attention on Windows\n\nHow do I do it?\n", "one-line:context-word-only"),
        ("FA3 on the H20\nIt fails at the first step.\n", "next-line"),
        ("Using xformers for SDXL\n\nIs there a guide?\n", "head-no-word"),
        ("Title\n\n### System Info\n\n" + SYSTEM_INFO + "\n### Describe the bug\n\nThe run stops.\n", "form-env"),
        ("A title\n\nOne.\nTwo.\nThree.\nFour.\nFive.\nSix.\nflash attention is named here.\n", "past-head"),
        ("The loss is NaN\n\nNo attention word at all.\n", "no-name"),
    ]
    assert [s.structure(text, B, FAILW)[0] for text, _ in cases] == [c for _, c in cases]
    assert s.structure(cases[3][0], B, FAILW)[1] and not s.structure(cases[1][0], B, FAILW)[1]
