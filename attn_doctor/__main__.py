import sys

try:
    from .cli import main
except ImportError as e:  # python -m attn_doctor in an interpreter without the doctor's own dependencies
    if e.name not in ("typer", "rich", "packaging", "yaml", "click"):
        raise
    sys.stderr.write(f"attn-doctor: error: this Python lacks attn-doctor's dependency {e.name!r}: "
                     f"{sys.executable} -m pip install typer rich packaging pyyaml   "
                     "(or install attn-doctor once with pipx and check this env with --python)\n")
    sys.exit(2)

if __name__ == "__main__":
    sys.exit(main())
