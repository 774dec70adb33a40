"""Variants for round 25 (issue 23, helper ex25): forum/blog pages (Chinese posts retelling threads, English blog posts,
a gist) and Chinese issues of model repos, most of them prose with little or no error line (fixtures/errors/round25/).

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real text: another
backend, GPU, file, version, wording or language. Each positive case asserts the entry and the backend of the first
problem that can be a failure's cause; the near misses beside each mechanism assert what must NOT be claimed.

Mechanisms (knowledge file: entry):
  order        builds.toml build.isolation: the backend must be installed (built) after torch, said as an install order in
               English, Chinese or Japanese, no error quoted (one requirements.txt pass fails)
  compiler     builds.toml build.compiler-error: the first compiler error retold in words with its source file and line
               ("编译器报告了一个类型转换错误 ... flash_fwd_kernel_sm90.h文件的第241行")
  fa3-files    attribution.toml fa3 files: FA3's Hopper kernel sources by name (flash_fwd_kernel_sm90.h,
               mainloop_fwd_sm90_*.hpp) without the hopper/ path
  gather       flash_attn.toml varlen.cu-seqlens: the unpadding gather's "idx_dim >= 0 && idx_dim < index_size" assert with the
               varlen call, its cu_seqlens or the unpadding helpers named in the same report
  eager-guard  attention.toml attn.import-guard: eager attention asked for and the model still demands flash-attn
  fa4-sm120    cute.toml cute.arch: FA4 "will not run / cannot be used on" a consumer Blackwell (sm_120/121, GB10)
  pip-pin      xformers.toml xformers.replaced-torch: `pip install xformers` followed by pip's resolver saying torchvision or
               torchaudio now requires another torch than the one installed
  words        prose.toml macros NOTON/FAIL/IMPORT/NUMBERS/CRASH/SLOW gained Russian, Korean, Spanish, Portuguese, German and
               French words, and GPU's model numbers (RTX/GTX 4090, sm_NN, H100) no longer need a \\b next to CJK/Korean
               letters (ASCII lookarounds): a one-line question in another language with a backend and a GPU named;
               then Japanese and Chinese idioms (サポートされていない, 落ちる, 遅く, import 不了, 视频是黑的), versions that
               do not match, no speed-up, and IGNORED (the option ignored) in Russian, Korean, Spanish, Portuguese, German, French;
               SENTENCE's first-person words in those languages; "can I use X on <GPU>?" questions (NOTON) and a Mac (GPU)
  build-oom-words  builds.toml build.oom: installing or building an attention library runs out of RAM or freezes the
               machine in Chinese, Japanese, Korean, Russian or Spanish words (not after the install, not the GPU's memory)
  pip-pin-words    xformers.toml xformers.replaced-torch: xformers replacing or breaking torch in Chinese, Russian, Spanish
  fa-names     attribution.toml FA2/FA3/FA4 names ("FA3", "fa4", "Flash Attention 3") and prose.toml's B with ASCII
               lookarounds instead of \\b ("FA3をA100で", "FA4 在"); NOTON's "only on" words (只支持, 에서만, しか対応, только на)
  nvcc-words   env.toml nvcc.none: nvcc or CUDA_HOME not found / not set, said in words in English, Chinese, Japanese, Korean
               or Russian during an attention library's build
  degraded     attention.toml attn.wrong-output: the backend makes the output blurry, distorted or full of artifacts (English),
               or noisy / blurred / artifacted in Chinese, Japanese, Korean, Russian or Spanish words; not a backend said absent
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


# order
@pytest.mark.parametrize("text,backend", [
    ("xformers must be installed after torch; putting both in one requirements.txt breaks the install", "xformers"),
    ("sageattention needs torch to be installed first, so uv sync of the whole lock file fails", "sage"),
    ("安装顺序问题:flash-attn需要在torch安装之后才能安装,一次性pip install -r requirements.txt会失败", "fa2"),
    ("SageAttention 必须在 PyTorch 安装完成后再安装", "sage"),
    ("flash-attnはtorchのあとにインストールする必要があります", "fa2"),
])
def test_install_order_in_words_is_build_isolation(text, backend):
    assert _top(text) == ("build.isolation", backend)


@pytest.mark.parametrize("text", [
    "flash-attn must be installed after cloning the repo",
    "You must install torch after creating the venv",
    "numpy must be installed after torch",
])
def test_other_install_orders_are_not_build_isolation(text):
    assert "build.isolation" not in _ids(text)


# compiler, fa3-files
@pytest.mark.parametrize("text,backend", [
    ("编译flash-attention时编译器报错,错误在flash_bwd_kernel.h文件的第88行", "fa2"),
    ("nvcc reported an error in csrc/qattn/qk_int_sv_f8_cuda_sm90.cu at line 130 while building SageAttention", "sage"),
    ("编译器报告了一个类型错误,出现在flash_bwd_kernel_sm90.h文件的第77行", "fa3"),
    ('mainloop_fwd_sm90_tma_gmma_ws.hpp(412): error: identifier "cutlass::arch::NamedBarrier" is undefined', "fa3"),
])
def test_compiler_error_retold_with_its_file_and_line(text, backend):
    assert _top(text) == ("build.compiler-error", backend)


@pytest.mark.parametrize("text", [
    "编译器报告了一个警告,在train.py文件的第20行",
    "the compiler reported an error in main.c at line 3 while building my own extension",
])
def test_other_compiler_reports_are_not_a_backends_build(text):
    assert "build.compiler-error" not in _ids(text)


# gather
@pytest.mark.parametrize("text", [
    "ScatterGatherKernel.cu:144: Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.\n"
    "  File \"/x/flash_attn/bert_padding.py\", line 17, in forward\n  index_first_axis(",
    "用flash_attention_2推理Qwen时报idx_dim >= 0 && idx_dim < index_size断言失败,最后定位到cu_seqlens_q构造错误",
])
def test_unpadding_gather_out_of_bounds_is_varlen_lengths(text):
    assert _top(text) == ("varlen.cu-seqlens", "fa2")


def test_a_gather_out_of_bounds_elsewhere_is_not_varlen():
    text = ("ScatterGatherKernel.cu:144: Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.\n"
            "  File \"/x/model.py\", line 40, in forward\n    out = torch.gather(logits, 1, labels)")
    assert "varlen.cu-seqlens" not in _ids(text)


# eager-guard
@pytest.mark.parametrize("text", [
    "Even with attn_implementation='eager' the remote code still raises: flash_attn is required",
    "在V100上把attn_implementation改成eager,还是报错缺少flash_attn",
])
def test_eager_asked_for_and_flash_attn_still_demanded(text):
    assert _top(text) == ("attn.import-guard", "fa2")


@pytest.mark.parametrize("text", [
    "I set attn_implementation='eager' and it still runs slowly",
    "attn_implementation='eager' works but flash_attn is missing from the requirements file",
])
def test_eager_without_a_demand_for_flash_attn_is_no_guard(text):
    assert "attn.import-guard" not in _ids(text)


# fa4-sm120
@pytest.mark.parametrize("text", [
    "FA4 won't run on the RTX PRO 6000 (sm_120)",
    "flash-attention-4 cannot be used with DGX Spark (GB10)",
])
def test_fa4_refused_on_consumer_blackwell_in_words(text):
    assert _top(text) == ("cute.arch", "cute")


@pytest.mark.parametrize("text", [
    "FA4 won't run on my H100 after the upgrade",
    "flash-attn 2 cannot run on RTX 5090 without a new wheel",
])
def test_other_refusals_are_not_fa4_on_sm120(text):
    assert "cute.arch" not in _ids(text)


# pip-pin
@pytest.mark.parametrize("text", [
    "pip install -U xformers\nCollecting xformers\nSuccessfully installed xformers-0.0.29.post3\n"
    "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.\n"
    "torchvision 0.20.1+cu124 requires torch==2.5.1, but you have torch 2.6.0 which is incompatible.",
    "uv pip install xformers==0.0.30\n torchaudio 2.6.0+cu126 requires torch==2.6.0, but you have torch 2.7.0+cu126 which is incompatible.",
])
def test_xformers_install_then_torch_companions_on_another_torch(text):
    assert _top(text) == ("xformers.replaced-torch", "xformers")


def test_another_install_moving_torch_is_not_xformers():
    text = ("pip install -U diffusers\n"
            "torchvision 0.20.1 requires torch==2.5.1, but you have torch 2.6.0 which is incompatible.")
    assert "xformers.replaced-torch" not in _ids(text)


# words
@pytest.mark.parametrize("text,entry,backend", [
    ("SageAttention не поддерживает мою RTX 2080?", "backend.unsupported-gpu", "sage"),  # policy: lead, session 26 (a GPU below every kernel of the backend, named in the sentence: that GPU refused; was prose.gpu)
    ("xformers는 RTX 5090을 지원하지 않나요?", "prose.gpu", "xformers"),
    ("在RTX4090上flash attention不支持吗", "prose.gpu", "fa2"),
    ("FlashAttention não suporta a minha GTX 1080", "backend.unsupported-gpu", "fa2"),  # policy: lead, session 26 (a GPU below every kernel of the backend, named in the sentence: that GPU refused; was prose.gpu)
    ("xformers wird auf meiner RTX 5090 nicht unterstützt", "prose.gpu", "xformers"),
    ("FlashAttention n'est pas supporté sur ma RTX 2080", "backend.unsupported-gpu", "fa2"),  # policy: lead, session 26 (a GPU below every kernel of the backend, named in the sentence: that GPU refused; was prose.gpu)
    ("No se encuentra el módulo flash_attn aunque lo instalé", "prose.import", "fa2"),
    ("flash_attn nicht gefunden, obwohl installiert", "prose.import", "fa2"),
    # session 6 (ex35): "sageattention is not installed" was already sage.not-installed (installed for another Python than the
    # app's: pip says it is); the Portuguese is now read the same (knowledge/sage.toml), no longer only as prose
    ("sageattention não está instalado mas o pip diz que sim", "sage.not-installed", "sage"),
    ("SageAttention генерирует чёрное изображение", "prose.numbers", "sage"),
    ("Con sageattention las imágenes salen negras", "prose.numbers", "sage"),
    ("flash attention 설치 후 속도가 느려요", "prose.slow", "fa2"),
    ("xformers работает очень медленно", "prose.slow", "xformers"),
    ("Con flex attention el entrenamiento es muy lento", "prose.slow", "flex"),
    ("flash-attn 설치 중 빌드가 안 됩니다", "prose.build", "fa2"),
    ("xformers 사용하면 ComfyUI가 충돌합니다", "prose.crash", "xformers"),
    # second set: Japanese and Chinese idioms the macros lacked (サポートされていない, 落ちる, 遅くなる, 終わらない,
    # "import 不了", "视频是黑的", "跑不起来"), Russian "не устанавливается / не видит", Spanish "la compilación falla"
    ("RTX 2080ではFlashAttentionがサポートされていないのですか？", "backend.unsupported-gpu", "fa2"),  # policy: lead, session 26 (a GPU below every kernel of the backend, named in the sentence: that GPU refused; was prose.gpu)
    ("xformersを有効にすると生成が遅くなる", "prose.slow", "xformers"),
    ("flash-attnのビルドが終わらない", "prose.build", "fa2"),
    ("flash_attnがインストールされているのにimportできない", "prose.import", "fa2"),
    ("xformersを入れたらComfyUIが落ちる", "prose.crash", "xformers"),
    ("用了sageattention之后生成的视频是黑的", "prose.numbers", "sage"),
    ("flash_attn 安装了但是 import 不了", "prose.import", "fa2"),
    ("xformers 在 5090 上跑不起来", "prose.gpu", "xformers"),
    ("flash-attn编译了三个小时还没好", "prose.build", "fa2"),
    ("SageAttention не устанавливается на Windows", "prose.build", "sage"),
    ("No puedo instalar flash-attn en Windows, la compilación falla", "prose.build", "fa2"),
    ("xformers не видит GPU RTX 5090", "prose.gpu", "xformers"),
    # third set: versions that do not match (不匹配, 冲突, 合わない, 맞지 않, no es compatible), a build that hangs
    # (висит), "not available" (недоступен) and no speed-up (加速效果不明显, не даёт ускорения, 速くならない, 속도 차이가 없)
    ("Установка flash-attn на Windows\nПри pip install flash-attn сборка висит уже два часа.", "prose.build", "fa2"),
    # (ex28, round 24m: these two, torch and xformers said not to match, are now xformers.built-for-other-torch, the entry
    # for that mechanism, ahead of the prose fallback; tests/test_explain_variants_28.py)
    ("xformers版本和torch版本不匹配怎么办", "xformers.built-for-other-torch", "xformers"),
    ("sageattention和triton版本冲突", "prose.fails", "sage"),
    ("xformers のバージョンが torch と合わない", "prose.fails", "xformers"),
    ("xformers와 torch 버전이 맞지 않습니다", "prose.fails", "xformers"),
    # session 6 (ex35): the English of it ("xformers is not compatible with my torch") was already xformers.built-for-other-torch;
    # the Spanish is now read the same (knowledge/versions.toml), no longer only as prose
    ("La versión de xformers no es compatible con mi torch 2.5", "xformers.built-for-other-torch", "xformers"),
    ("xformers 和 CUDA 版本不对应", "prose.fails", "xformers"),
    ("xformersとtorchのバージョンが違う", "xformers.built-for-other-torch", "xformers"),
    ("версии xformers и torch не совпадают", "prose.fails", "xformers"),
    ("FlashAttention2 недоступен, хотя пакет установлен", "prose.import", "fa2"),
    ("flash_attn 加速效果不明显", "prose.slow", "fa2"),
    ("Flash attention не даёт ускорения", "prose.slow", "fa2"),
    ("sageattentionを使っても速くならない", "prose.slow", "sage"),
    ("xformers 켜도 속도 차이가 없어요", "prose.slow", "xformers"),
    # fourth set: the option ignored, said in Russian, Korean, Spanish, Portuguese, German and French
    ("--use-sage-attention игнорируется, всё равно используется SDPA", "prose.ignored", "sage"),
    ("xformers 옵션이 적용되지 않고 계속 sdpa를 사용합니다", "prose.ignored", "xformers"),
    ("El flag de flash attention se ignora y sigue usando SDPA", "prose.ignored", "fa2"),
    ("A opção --xformers é ignorada", "prose.ignored", "xformers"),
    ("--use-flash-attention wird ignoriert", "prose.ignored", "fa2"),
    ("l'option xformers est ignorée", "prose.ignored", "xformers"),
])
def test_prose_words_in_other_languages(text, entry, backend):
    assert _top(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    "Моя RTX 2080 не поддерживает это?",
    "Las imágenes salen negras con mi modelo",
    "El entrenamiento es muy lento en mi RTX 4090",
    "RTX 2080ではサポートされていないのですか？",
    "生成的视频是黑的",
    "ComfyUIが落ちる",
    "import 不了",
    "用了sageattention之后生成的视频是彩色的，很好",
    "xformersで生成が速くなりました",
    "torch和torchvision版本不匹配怎么办",
    "flash-attn与CUDA版本对应关系",
    "CUDA和驱动版本不对应",
    "Модель недоступна на сайте",
    "모델이 너무 커서 속도 차이가 없어요",
    # out of memory said in words is not a backend's failure (no prose entry claims it)
    "SDPA 使用时显存溢出",
    "Este aviso se ignora",
    "Это предупреждение игнорируется",
    "경고는 무시됩니다",
])
def test_prose_words_without_a_backend_claim_nothing(text):
    assert _ids(text) == []


# words: a title in another language, then the user's first sentence naming the backend in Spanish, Portuguese, German or
# French first person (SENTENCE), not a program's line
@pytest.mark.parametrize("text,entry,backend", [
    ("Error al generar imágenes en mi RTX 5090\nUso xformers con ComfyUI y no sé qué hacer", "prose.gpu", "xformers"),
    ("Falha ao gerar na RTX 5090\nEu uso flash-attn com o ComfyUI", "prose.gpu", "fa2"),
    ("Fehler auf der RTX 5090\nich nutze sageattention mit ComfyUI", "prose.gpu", "sage"),
    ("Erreur sur RTX 5090\nj'utilise xformers avec ComfyUI", "prose.gpu", "xformers"),
])
def test_title_then_first_person_sentence_in_other_languages(text, entry, backend):
    assert _top(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    "Error al generar imágenes en mi RTX 5090\nLoading xformers ops",
    "Error al generar imágenes en mi RTX 5090\nxformers version: 0.0.29",
])
def test_title_then_a_program_line_is_not_a_sentence(text):
    assert _ids(text) == []


# words: "can I use X on <GPU/platform>?" asked in English, Chinese, Korean, Japanese, Russian or Spanish (NOTON's
# question forms; GPU names a Mac)
@pytest.mark.parametrize("text,entry,backend", [
    ("flash attention 2 在 mac 上能用吗", "prose.gpu", "fa2"),
    ("Mac에서 flash attention 쓸 수 있나요?", "prose.gpu", "fa2"),
    ("MacでFlashAttentionは使えますか？", "prose.gpu", "fa2"),
    ("Can I use flash attention on a V100?", "backend.unsupported-gpu", "fa2"),  # policy: lead, session 26 (a GPU below every kernel of the backend, named in the sentence: that GPU refused; was prose.gpu)
    ("Можно ли использовать xformers на GTX 1080?", "prose.gpu", "xformers"),  # xformers' kernels run on Pascal: stays
    ("¿Se puede usar sageattention en una RTX 2060?", "backend.unsupported-gpu", "sage"),  # policy: lead, session 26 (a GPU below every kernel of the backend, named in the sentence: that GPU refused; was prose.gpu)
])
def test_can_i_use_it_on_this_gpu(text, entry, backend):
    assert _top(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    "Can I use ComfyUI on Mac?",
    "Can I use flash attention with bf16?",
    "flash attention 2 能用吗",
])
def test_can_i_use_without_a_gpu_or_a_backend_is_no_gpu_claim(text):
    assert "prose.gpu" not in _ids(text)


# build-oom-words: builds.toml build.oom, installing or building an attention library runs out of RAM or freezes the
# machine, said in Chinese, Japanese, Korean, Russian or Spanish; a stuck build in Chinese or Japanese (卡在, 踩坑, 詰まった)
# is prose.build's
@pytest.mark.parametrize("text,entry,backend", [
    ("编译flash-attn时内存不足电脑死机", "build.oom", "fa2"),
    ("sageattentionをビルドするとPCがフリーズする", "build.oom", "sage"),
    ("flash_attnをpipでインストールすると固まる", "build.oom", "fa2"),
    ("xformers 빌드 중 메모리 부족으로 멈춤", "build.oom", "xformers"),
    ("При сборке flash-attn не хватает памяти", "build.oom", "fa2"),
    ("Al compilar flash-attn se queda sin RAM", "build.oom", "fa2"),
    ("Windows下编译flash-attention一直卡在Building wheel", "prose.build", "fa2"),
    ("flash-attn安装踩坑记录", "prose.build", "fa2"),
    ("xformersのインストールで詰まった話", "prose.build", "xformers"),
])
def test_build_out_of_ram_or_stuck_in_other_languages(text, entry, backend):
    assert _top(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    "编译项目时内存不足",
    "使用xformers生成时内存不足",
    "安装xformers后运行时内存不足",
    "flash-attn 설치했는데 추론 시 GPU 메모리 부족",
    "sageattention을 설치한 후 메모리 부족",
])
def test_memory_after_the_install_or_without_a_backend_is_no_build_oom(text):
    assert "build.oom" not in _ids(text)


# pip-pin-words: xformers.toml xformers.replaced-torch in Chinese, Russian and Spanish words
@pytest.mark.parametrize("text", [
    "xformers装完torch变成CPU版本了",
    "Установка xformers ломает torch",
    "xformers снес torch и поставил CPU-версию",
    "instalar xformers desinstala mi torch con CUDA",
])
def test_xformers_replacing_torch_in_other_languages(text):
    assert _top(text) == ("xformers.replaced-torch", "xformers")


def test_torch_becoming_a_cpu_build_without_xformers_is_not_xformers():
    assert "xformers.replaced-torch" not in _ids("torch装完变成CPU版本了")


# degraded
@pytest.mark.parametrize("text,backend", [
    ("Sage attention makes my Wan videos blurry and full of artifacts", "sage"),
    ("sageattention导致视频画面模糊、有伪影", "sage"),
    ("用sageattention会出现噪点", "sage"),
    ("用了xformers之后出图花屏", "xformers"),
    ("SageAttentionを使うと画質が劣化する", "sage"),
    ("sageattention 쓰면 영상에 노이즈가 생겨요", "sage"),
    ("С sageattention видео получается размытым", "sage"),
    ("Con sageattention los videos salen borrosos", "sage"),
])
def test_backend_degrading_the_output_in_words(text, backend):
    assert _top(text) == ("attn.wrong-output", backend)


@pytest.mark.parametrize("text", [
    "without sageattention the videos are blurry",
    "flash-attn build artifacts take 2 GB",
    "不用sageattention的时候画面模糊",
    "sageattention没有的话画面模糊",
    "xformers없이 하면 노이즈가 없어요",
    "xformers installed, the image is blurry because of the VAE",
    "xformers gives a speedup without any artifacts",
])
def test_degraded_output_without_the_backend_is_not_its_wrong_output(text):
    assert "attn.wrong-output" not in _ids(text)


# fa-names
@pytest.mark.parametrize("text,backend,entry", [
    ("FA3をA100で使おうとするとエラーになる", "fa3", "prose.gpu"),
    ("FA4 在 5090 上跑不了", "cute", "prose.gpu"),
    ("flash attention 3 는 H100에서만 되나요?", "fa3", "prose.gpu"),
    ("FlashAttention3只支持H100吗", "fa3", "prose.gpu"),
    ("FA2は V100 しか対応していない?", "fa2", "backend.unsupported-gpu"),  # policy: lead, session 26 (a GPU below every kernel of the backend, named in the sentence: that GPU refused; was prose.gpu)
])
def test_fa_version_names_next_to_cjk_letters(text, backend, entry):
    assert _top(text) == (entry, backend)


def test_xformers_fa3f_op_stays_xformers():
    assert _top("xformers的fa3F算子在H100上报错")[1] == "xformers"


# nvcc-words
@pytest.mark.parametrize("text", [
    "building flash-attn: nvcc not found",
    "flash-attn install says CUDA_HOME is not set",
    "pip install flash-attn 一直报 CUDA_HOME 没有设置",
    "编译flash-attn提示找不到nvcc",
    "flash-attnのビルドでnvccが見つからない",
    "flash-attn 빌드 시 nvcc를 찾을 수 없음",
    "при установке flash-attn не находит nvcc",
])
def test_nvcc_missing_in_words(text):
    assert _top(text) == ("nvcc.none", "fa2")


@pytest.mark.parametrize("text", [
    "nvcc found at /usr/local/cuda/bin/nvcc",
    "nvcc_threads not set",
    "flash-attn install: nvcc found, CUDA_HOME set to /usr/local/cuda",
])
def test_nvcc_present_is_not_nvcc_none(text):
    assert "nvcc.none" not in _ids(text)
