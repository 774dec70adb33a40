"""Helper ex166 (session 29, issue 23; benchmarks/results/explain-policies-s28.md, "Session 29 (ex166)"): the policy leftovers of
session 28, each a class. Every text is written here (none is a fixture's); each positive read otherwise at s29start (checked
against /work/wt/s29start), each near miss reads the same at both."""

from __future__ import annotations

import pytest

from tests.test_review_rev28 import _read, ANY, not_read_as, read_as

_TOKENIZER = "ValueError: tokenizer.json not found\n"
_KEY = "KeyError: 'input_ids'\n"
_LIMIT = {"backend.unsupported-gpu", "prose.gpu"}


# 1. The choice said first, the limit given as its reason after it (refusals._choice_first; [limit_as_reason] uses / because /
# because_after), then another failure: the limit is context, as in ex161's order ("..., so we use sdpa"). s29start read the
# limit (backend.unsupported-gpu / fa2, prose.gpu / fa2).
@pytest.mark.parametrize("text", [
    "We use sdpa because our V100 can't run FA2. Training crashes at step 10:\n" + _KEY,
    "We use sdpa. Because our V100 can't run FA2. Training crashes at step 10:\n" + _KEY,
    "用 sdpa，因为 V100 不支持 flash-attn。下面是报错：\n" + _TOKENIZER,
    "sdpaを使っています。V100ではFlashAttention 2が使えないからです。\n以下のエラーが出ます:\n" + _TOKENIZER,
    "sdpa를 사용합니다. V100에서는 FlashAttention 2를 지원하지 않기 때문입니다. 오류는 아래와 같습니다:\n" + _TOKENIZER,
    "V100에서 FlashAttention 2를 지원하지 않기 때문에 sdpa를 사용합니다. 오류:\n" + _TOKENIZER,
    "Мы используем sdpa, потому что наши V100 не поддерживают flash-attn 2. Ошибка ниже:\n" + _TOKENIZER,
    "Usamos sdpa porque nuestras V100 no soportan flash-attn 2. El error es este:\n" + _TOKENIZER,
    "Nous utilisons sdpa parce que nos V100 ne supportent pas flash-attn 2. Voici l'erreur :\n" + _TOKENIZER,
    "Wir nutzen sdpa, weil unsere V100 flash-attn 2 nicht unterstützen. Der Fehler:\n" + _TOKENIZER,
    # "has no ... support" as the limit ("since" opening the sentence, the choice after it: ex161's order)
    "Since our T4 has no FA2 support we switched to xformers. Now it crashes:\n" + _TOKENIZER,
])
def test_a_limit_given_as_the_reason_after_the_choice_is_context(text):
    got = _read(text)
    assert not any(e in _LIMIT or b == "fa2" for e, b in got), got


# near misses: the limit is the report -- a failure that is no limit ("fails to build" and its log), nothing reported after it, a
# question, the ruled-out backend's own failure after it, a word "as" that gives no reason
@pytest.mark.parametrize("text, entry, backend", [
    ("We use sdpa because FA2 fails to build:\nerror: command '/usr/bin/nvcc' failed with exit code 1\n",
     "build.compile-failed", "fa2"),
    ("We use sdpa because our V100 can't run FA2.\n", "prose.gpu", "fa2"),
    ("用 sdpa，因为 V100 不支持 flash-attn。\n", "backend.unsupported-gpu", "fa2"),
    ("Should we use sdpa because our V100 can't run FA2? Any errors to expect?\n", "backend.unsupported-gpu", "fa2"),
    ("We use sdpa because our V100 can't run FA2. With flash_attention_2 it fails right away with an error about the GPU.\n",
     "backend.unsupported-gpu", "fa2"),
    ("As a test our V100 can't run FA2 and crashes:\nRuntimeError: FlashAttention only supports Ampere GPUs or newer.\n",
     "backend.unsupported-gpu", "fa2"),
])
def test_where_the_limit_is_the_report_it_stays(text, entry, backend):
    read_as(text, entry, backend)


# 2. The backend chosen over the ruled-out one fails in turn, in words (refusals.chosen_failing): that backend's report in every
# language, not only where the library rules happen to name it first (s29start: English xformers, Chinese None, Japanese nothing)
@pytest.mark.parametrize("text, entry", [
    ("V100不支持flash-attn 2，所以改用xformers。但是xformers也报错了。\n", "backend.unsupported-gpu"),
    ("V100 不支持 flash-attn 2，所以我们用 xformers。但是 xformers 在 V100 上也报错。\n", "backend.unsupported-gpu"),
    ("V100ではFlashAttention 2が使えないので、xformersを使っています。でもxformersもエラーになります。\n", ANY),
])
def test_the_chosen_backends_failure_after_the_limit_is_read_in_other_languages(text, entry):
    got = _read(text)
    assert got[:1] and (entry is ANY or got[0][0] == entry) and got[0][1] == "xformers", got


# near miss: another program's failure after the limit names no chosen backend (ex161's rule holds)
def test_another_failure_after_the_limit_is_not_the_chosen_backends():
    not_read_as("V100不支持flash-attn 2，所以改用xformers。下面的报错来自tokenizer：\n" + _TOKENIZER, _LIMIT, "xformers")


# 3. An issue form's heading over the first sentence is the form's, no title: the patterns that read a report's title read that
# sentence (match._Search.head, _FORM_LEAD). s29start: prose.fails / fa2 (the title pattern of backend.unsupported-gpu failed on
# the blanked heading)
@pytest.mark.parametrize("heading", ["### Describe the bug", "**Describe the bug**", "## 问题描述", "### 🐛 Describe the bug",
                                     "**Bug description**"])
def test_a_form_heading_over_a_limit_is_no_title(heading):
    read_as(heading + "\nFlash attention 2 is not supported on the V100.\n", "backend.unsupported-gpu", "fa2")


# near misses: the sentence alone (its own title), and under a form's environment section (setup, never the failure)
@pytest.mark.parametrize("text, first", [
    ("Flash attention 2 is not supported on the V100.\n", ("backend.unsupported-gpu", "fa2")),
    ("### System Info\nFlash attention 2 is not supported on the V100.\n", None),
])
def test_a_limit_sentence_alone_or_under_the_environment(text, first):
    got = _read(text)
    assert (got[0][:2] if got else None) == first, got


# 4. An exception quoted after the writer's lead and a colon, no quote ("raises: ValueError: ..."): the lead is cut as a quoted
# error's (match._COLON_ERROR), and the exception's line read as it is read alone. s29start: prose.fails / prose.gpu / prose.import
@pytest.mark.parametrize("lead", ["Loading the model raises: ", "It throws: ", "and it gives the error: ",
                                  "The import fails with: ", "I get this error: "])
@pytest.mark.parametrize("error, backend", [
    ("ValueError: XFormers does not support attention mask", "xformers"),
    ("AssertionError: SageAttention requires sm80", "sage"),
])
def test_an_exception_after_a_lead_and_a_colon_is_read_as_alone(lead, error, backend):
    read_as(lead + error + "\n", "triage.error-names-backend", backend)


# near misses: a chained exception's type is no lead; a lead that names a backend keeps the line the writer's sentence
@pytest.mark.parametrize("text, first", [
    ("RuntimeError: ValueError: XFormers does not support attention mask\n", ("triage.error-names-backend", "xformers")),
    ("With xformers enabled, generation raises: ValueError: the prompt is too long\n", ("prose.fails", "xformers")),
])
def test_no_lead_is_cut_where_it_is_no_writers_lead(text, first):
    got = _read(text)
    assert got[:1] and got[0][:2] == first, got


# 5. torch's own cuDNN version checks (torch/backends/cudnn/__init__.py _init(): knowledge/cuda.toml cuda.cudnn-version-mismatch),
# and a report's title in those words (pytorch/pytorch#128207): no backend of the seven (every cuDNN call is checked).
# 6a. pip's refusal of a backend's wheel cut at a line's end (round 154m's pengHTYX/Era3D#34, a title): after pip's warning that a
# wheel named on the command line is not on disk, only "<file> is not a supported wheel on this platform" starts so.
# 6b. a stable-ABI wheel's tag taken for a wrong build (round 154m's facebookresearch/xformers#1270): install.abi3-wheel.
# s29start: nothing read, or another entry
@pytest.mark.parametrize("text, entry, backend", [
    ("Traceback (most recent call last):\n  File \"train.py\", line 4, in <module>\n    out = F.conv2d(x, w)\nRuntimeError: cuDNN "
     "version incompatibility: PyTorch was compiled  against (9, 1, 0) but found runtime version (8, 9, 2). PyTorch already "
     "comes bundled with cuDNN. One option to resolving this error is to ensure PyTorch can find the bundled cuDNN. one "
     "possibility is that there is a conflicting cuDNN in LD_LIBRARY_PATH.\n", "cuda.cudnn-version-mismatch", None),
    ("RuntimeError: cuDNN version 91100 is not compatible with devices with SM < 7.5. Please install a version of PyTorch with "
     "a compatible cuDNN version.\n", "cuda.cudnn-version-mismatch", None),
    ("The cuDNN version is too old!\n\nIt happens at the first image with SDXL.\n", "cuda.cudnn-version-mismatch", None),
    ("WARNING: Requirement 'sageattention-2.1.1-cp310-cp310-win_amd64.whl' looks like a filename, but the file does not exist "
     "ERROR: sageattention-2.1.1-cp310-cp310-win_amd64.whl is no\n\nI ran it in the webui's venv\n", "install.wheel-other-platform", ANY),
    ("ERROR: flash_attn-2.7.4.post1+cu12torch2.5cxx11abiFALSE-cp311-cp311-linux_x86_64.whl is not a\n",
     "install.wheel-other-platform", ANY),
    ("Building xformers from source gives xformers-0.0.32-cp39-abi3-linux_x86_64.whl instead of cp312 on Python 3.12\n",
     "install.abi3-wheel", ANY),
    ("Why is my flash_attn_3 wheel tagged cp39-abi3 and not cp311? I built it with Python 3.11\n", "install.abi3-wheel", ANY),
])
def test_the_entries_for_the_leftovers_read_their_mechanism(text, entry, backend):
    read_as(text, entry, backend)


# near misses: SDPA's own cuDNN gate (a warning, its entry), another framework's cuDNN banner in a log, the words inside a sentence;
# a valid-name refusal's other ending, words that only start so; an abi3 wheel downloaded and installed
@pytest.mark.parametrize("text, entries", [
    ("UserWarning: cuDNN version too old to use cuDNN Attention (have 8.9.2)\n", {"cuda.cudnn-version-mismatch"}),
    ("Using gpu device 1: GeForce GTX TITAN X (CNMeM is disabled, cuDNN Version is too old. Update to v5, was 3007.)\n",
     {"cuda.cudnn-version-mismatch"}),
    ("I think the cuDNN version is too old for this GPU, but the real error is below\nKeyError: 'input_ids'\n",
     {"cuda.cudnn-version-mismatch"}),
    ("ERROR: xformers-0.0.23.post1-cp39-cp39-manylinux2014_x86_64.whl is not a valid\n", {"install.wheel-other-platform"}),
    ("Downloading xformers-0.0.23.post1-cp39-cp39-manylinux2014_x86_64.whl is no problem here\n", {"install.wheel-other-platform"}),
    ("Downloading xformers-0.0.31-cp39-abi3-manylinux_2_28_x86_64.whl (117.1 MB)\nSuccessfully installed xformers-0.0.31\n",
     {"install.abi3-wheel"}),
])
def test_near_misses_of_the_leftovers_entries(text, entries):
    not_read_as(text, entries, None)
