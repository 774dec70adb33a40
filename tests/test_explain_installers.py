"""A failed build of a backend, as each installer prints it (issue 23).

build.compile-failed knew pip's legacy lines only (`Failed building wheel for flash-attn`). pip 21.2+
prints the boxed form (`× Building wheel for X (pyproject.toml) did not run successfully.`, `x`/`|`
in ASCII terminals) and pip 24 a summary line; uv says ``Failed to build `X==v` `` (also `Failed to
download and build`, `X @ git+...#subdirectory=hopper` for FA3, and `Failed to fetch wheel` over a
build backend's failure); poetry's ChefBuildError notes "not a problem with poetry but with X (v)".
On main before this change 3 of the 19 positive cases below matched. Every case is written by hand
(2026-11-28) from the installers' output formats, not copied from a thread; each names the package
it was building, and the package decides the backend. Another project's build failing in the same
words is not claimed (the catch-all needs an attention backend named near it).
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

POSITIVE = [
    ("  × Building wheel for xformers (pyproject.toml) did not run successfully.\n  │ exit code: 1\n  ╰─> [412 lines of output]", "xformers"),
    ("  x Building wheel for flash-attn (setup.py) did not run successfully.\n  | exit code: 1\n  +-> [180 lines of output]", "fa2"),
    ("  × Building editable for sageattention (pyproject.toml) did not run successfully.\n  │ exit code: 1", "sage"),
    ("    Running setup.py install for flash-attn ... error\n    ERROR: Command errored out with exit status 1:", "fa2"),
    ("  × Running setup.py install for xformers did not run successfully.\n  │ exit code: 1", "xformers"),
    ("  Building wheel for flash_attn (pyproject.toml) ... error\n  error: subprocess-exited-with-error", "fa2"),
    ("ERROR: Failed to build installable wheels for some pyproject.toml based projects (flash-attn)", "fa2"),
    ("ERROR: Failed to build installable wheels for some pyproject.toml based projects (sageattention, triton-windows)", "sage"),
    ("error: Failed to build `flash-attn==2.8.3`\n  Caused by: Build backend failed to build wheel through `build_wheel` (exit status: 1)", "fa2"),
    ("  × Failed to build `sageattention @ file:///home/me/SageAttention`\n  ├─▶ The build backend returned an error\n  ╰─▶ Call to `setuptools.build_meta.build_wheel` failed (exit status: 1)", "sage"),
    ("error: Failed to download and build `flash-attn==2.7.4.post1`\n  Caused by: Build backend failed to build wheel", "fa2"),
    ("  × Failed to build `flash-attn @ git+https://github.com/Dao-AILab/flash-attention.git@v2.8.3#subdirectory=hopper`", "fa3"),
    ("error: Failed to prepare distributions\n  Caused by: Failed to fetch wheel: flash-attn==2.6.3\n  Caused by: Build backend failed to build wheel through `build_wheel()` with exit status: 1", "fa2"),
    ("  ChefBuildError\n\n  Backend subprocess exited when trying to invoke build_wheel\n\nNote: This error originates from the build backend, and is likely not a problem with poetry but with flash-attn (2.5.8) not supporting PEP 517 builds.", "fa2"),
    ("[BuildError]: Build backend raised error: Showing the output of the subprocess:\n  Failed to build xformers", "xformers"),
    ("  ERROR: Failed building wheel for flash_attn_3\nFailed to build flash_attn_3", "fa3"),
    ("error: Failed to build `flash-attn-4==4.0.0b5`", "cute"),
    ("安装失败：ERROR: Failed building wheel for flash-attn", "fa2"),
    ("xformersのビルドに失敗しました: × Building wheel for xformers (pyproject.toml) did not run successfully.", "xformers"),
]


@pytest.mark.parametrize("text,backend", POSITIVE, ids=[f"{i}" for i in range(len(POSITIVE))])
def test_installer_build_failure_names_the_backend(text, backend):
    found = match(text)
    assert found, text
    assert (found[0].entry.id, found[0].backend) == ("build.compile-failed", backend)


NEGATIVE = [
    "  × Building wheel for mamba-ssm (pyproject.toml) did not run successfully.\n  │ exit code: 1",
    "error: Failed to build `causal-conv1d==1.5.0`\n  Caused by: Build backend failed",
    "ERROR: Failed to build installable wheels for some pyproject.toml based projects (flash-linear-attention-ext, mamba-ssm)",
    "Successfully built flash-attn\nInstalling collected packages: flash-attn\nSuccessfully installed flash-attn-2.8.3",
    "  Building wheel for xformers (pyproject.toml) ... done",
    "error: Failed to fetch wheel: flash-attn==2.6.3\n  Caused by: Request failed after 3 retries",
]


@pytest.mark.parametrize("text", NEGATIVE, ids=[f"{i}" for i in range(len(NEGATIVE))])
def test_not_a_backend_build_failure(text):
    assert [f.entry.id for f in match(text) if f.entry.id == "build.compile-failed"] == []


def test_the_root_cause_ranks_above_the_installer_line():
    log = ("      UserWarning: Attempted to use ninja as the BuildExtension backend but we could not find ninja.. "
           "Falling back to using the slow distutils backend.\n"
           "  × Building wheel for flash-attn (setup.py) did not run successfully.\n  │ exit code: 1\n")
    assert [f.entry.id for f in match(log)][:2] == ["build.no-ninja", "build.compile-failed"]


# ---------------------------------------------------------------------------------------------------
# Before anything is built: no release fits, a wheel for another interpreter, a resolver conflict over
# torch. On main before this change none of these 17 positive cases matched.
# ---------------------------------------------------------------------------------------------------
RESOLVE = [
    ("ERROR: Could not find a version that satisfies the requirement flash-attn==2.8.3 (from versions: none)\nERROR: No matching distribution found for flash-attn==2.8.3", "install.no-distribution", "fa2"),
    ("ERROR: No matching distribution found for xformers==0.0.29.post3", "install.no-distribution", "xformers"),
    ("ERROR: Could not find a version that satisfies the requirement sageattention>=2.0 (from versions: 1.0.0, 1.0.1, 1.0.2, 1.0.3, 1.0.4, 1.0.5, 1.0.6)", "install.no-distribution", "sage"),
    ("ERROR: Could not find a version that satisfies the requirement flash_attn_3 (from versions: none)", "install.no-distribution", "fa3"),
    ("  × No solution found when resolving dependencies:\n  ╰─▶ Because flash-attn==2.8.3 has no wheels with a matching platform tag (e.g., `manylinux_2_35_x86_64`) and you require flash-attn==2.8.3, we can conclude that your requirements are unsatisfiable.", "install.no-distribution", "fa2"),
    ("  × No solution found when resolving dependencies:\n  ╰─▶ Because only xformers<=0.0.28 is available and xformers==0.0.28 has no wheels with a matching Python ABI tag, we can conclude that all versions of xformers cannot be used.", "install.no-distribution", "xformers"),
    ("error: Distribution `sageattention==2.2.0 @ registry+https://example.invalid/simple` can't be installed because it doesn't have a source distribution or wheel for the current platform", "install.no-distribution", "sage"),
    ("PackagesNotFoundError: The following packages are not available from current channels:\n\n  - xformers=0.0.29\n\nCurrent channels:\n", "install.no-distribution", "xformers"),
    ("PackagesNotFoundError: The following packages are not available from current channels:\n\n  - einops\n  - flash-attn==2.7.4\n", "install.no-distribution", "fa2"),
    ("pip安装报错：ERROR: No matching distribution found for flash-attn", "install.no-distribution", "fa2"),
    ("ERROR: flash_attn-2.8.3+cu12torch2.7cxx11abiTRUE-cp312-cp312-linux_x86_64.whl is not a supported wheel on this platform.", "install.wheel-other-platform", "fa2"),
    ("ERROR: sageattention-2.2.0+cu128torch2.8.0.post2-cp39-abi3-win_amd64.whl is not a supported wheel on this platform.", "install.wheel-other-platform", "sage"),
    ("ERROR: xformers-0.0.30-cp310-cp310-manylinux_2_28_x86_64.whl is not a supported wheel on this platform.", "install.wheel-other-platform", "xformers"),
    ("error: A path dependency is incompatible with the current platform: C:\\wheels\\flash_attn-2.7.4.post1-cp311-cp311-win_amd64.whl", "install.wheel-other-platform", "fa2"),
    ("ERROR: Cannot install torch==2.5.1 and xformers==0.0.28 because these package versions have conflicting dependencies.", "versions.needs-other-torch", "xformers"),
    ("  × No solution found when resolving dependencies:\n  ╰─▶ Because xformers==0.0.30 depends on torch==2.7.0 and you require torch==2.8.0, we can conclude that your requirements and xformers==0.0.30 are incompatible.", "versions.needs-other-torch", "xformers"),
    ("xformers 0.0.22 has requirement torch==2.0.1, but you'll have torch 2.1.0 which is incompatible.", "versions.needs-other-torch", "xformers"),
]


@pytest.mark.parametrize("text,entry,backend", RESOLVE, ids=[f"{i}" for i in range(len(RESOLVE))])
def test_install_failure_before_any_build(text, entry, backend):
    found = match(text)
    assert found, text
    assert (found[0].entry.id, found[0].backend) == (entry, backend)


RESOLVE_NEGATIVE = [
    "ERROR: No matching distribution found for triton==3.2.0",
    "ERROR: Could not find a version that satisfies the requirement mamba-ssm (from versions: none)",
    "ERROR: causal_conv1d-1.5.0-cp311-cp311-linux_x86_64.whl is not a supported wheel on this platform.",
    "ERROR: Cannot install numpy==1.26.4 and pandas==2.2.3 because these package versions have conflicting dependencies.",
    "ERROR: Cannot install torch==2.5.1 and torchvision==0.21.0 because these package versions have conflicting dependencies.",
    "PackagesNotFoundError: The following packages are not available from current channels:\n\n  - pytorch-cuda=12.8\n",
    "  ╰─▶ Because flash-linear-attention==0.2.0 depends on torch==2.7.0 and you require torch==2.8.0, we can conclude that your requirements are unsatisfiable.",
    "Successfully installed flash_attn-2.8.3 xformers-0.0.30",
]


@pytest.mark.parametrize("text", RESOLVE_NEGATIVE, ids=[f"{i}" for i in range(len(RESOLVE_NEGATIVE))])
def test_not_a_backend_install_failure(text):
    assert [f.entry.id for f in match(text)] == []
