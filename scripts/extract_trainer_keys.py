"""Regenerate attn_doctor/configs/trainer_keys.py: every key the YAML/JSON config of a dataclass-argument trainer may
hold, read statically (ast) from the trainers' own repositories, so attn-doctor can tell a file the trainer's own
parser would take from a file of another framework that only shares a few key names with it.

Usage: python scripts/extract_trainer_keys.py MIRRORS_DIR TRANSFORMERS_DIR > attn_doctor/configs/trainer_keys.py
MIRRORS_DIR holds bare clones (modelscope+ms-swift/repo, hiyouga+LLaMA-Factory/repo, huggingface+trl/repo,
Lightning-AI+litgpt/repo);
TRANSFORMERS_DIR holds VERSION/transformers/training_args.py and training_args_seq2seq.py for each transformers
release read (the files of huggingface/transformers at tag vVERSION, as that release's wheel ships them; the table of
session 8 read 4.36.2, 4.46.3, 4.57.1 and 5.24.0):
    pip download --no-deps transformers==4.46.3 -d /tmp/tf && cd /tmp/tf && mkdir 4.46.3 && \
    unzip -q transformers-4.46.3-py3-none-any.whl 'transformers/training_args*.py' -d 4.46.3

Both trainers parse their config with transformers' HfArgumentParser over dataclasses: ms-swift turns the YAML's
keys into `--key value` (swift/cli/main.py parse_yaml_args) and refuses what the parser leaves over
(swift/pipelines/base.py: ValueError("remaining_argv: ...") unless ignore_args_error); LLaMA-Factory hands the dict
to parse_dict (src/llamafactory/hparams/parser.py _parse_args: "Some keys are not used by the HfArgumentParser"
unless ALLOW_EXTRA_ARGS). The key set is every annotated class attribute of the argument modules (a dataclass's
fields; the classes they inherit from transformers' TrainingArguments / Seq2SeqTrainingArguments and TRL's configs),
several releases joined, so a key an older release had is not reported as foreign (a key none of them has is).
Nothing is imported or run."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys

# trainer -> its parsers (entry points whose argument classes differ) -> (mirror, releases read, the files searched
# for classes, the argument classes that parser is made of, resolved through their base classes: the trainer's own,
# transformers' TrainingArguments / Seq2SeqTrainingArguments, TRL's configs), plus keys the loader itself takes.
# A file is the trainer's when one of its parsers takes (nearly) all of the file's keys.
SWIFT = ("modelscope+ms-swift", ["v2.6.0", "v3.5.0", "v3.12.0", "HEAD"], r"^swift/.*\.py$")
LMF = ("hiyouga+LLaMA-Factory", ["v0.6.0", "v0.8.3", "v0.9.0", "HEAD"], r"^src/(llmtuner|llamafactory)/.*\.py$")
TRAINERS = {
    "ms-swift": {
        # swift sft / pt / rlhf (3.x's TrainArguments, 2.x's PtArguments; RLHFArguments inherits SftArguments)
        "swift sft/pt/rlhf": (SWIFT, {"SftArguments", "TrainArguments", "PretrainArguments", "PtArguments",
                                       "RLHFArguments"}),
        # megatron sft / pt / rlhf: MegatronArguments + BaseArguments (no TrainingArguments, no TunerArguments)
        "megatron sft/pt/rlhf": (SWIFT, {"MegatronTrainArguments", "MegatronSftArguments", "MegatronPretrainArguments",
                                         "MegatronRLHFArguments"}),
        # swift infer / deploy / export / eval / sample: not training, but the same YAML layout
        "swift infer/deploy/export/eval": (SWIFT, {"InferArguments", "DeployArguments", "ExportArguments",
                                                   "EvalArguments", "SamplingArguments", "RolloutArguments"}),
    },
    "llama-factory": {
        # llamafactory-cli train (hparams/parser.py _TRAIN_ARGS: ModelArguments DataArguments TrainingArguments (a
        # Seq2SeqTrainingArguments) FinetuningArguments GeneratingArguments; 0.6's src/llmtuner: Seq2SeqTrainingArguments)
        "train": (LMF, {"ModelArguments", "DataArguments", "TrainingArguments", "Seq2SeqTrainingArguments",
                        "FinetuningArguments", "GeneratingArguments", "transformers.Seq2SeqTrainingArguments"},
                  r"/hparams/"),
        # LLaMA-Factory v1 (src/llamafactory/v1/config/arg_parser.py: its own four dataclasses only)
        "v1": (LMF, {"ModelArguments", "DataArguments", "TrainingArguments", "SampleArguments"}, r"/v1/config/"),
    },
}
# LitGPT: litgpt/__main__.py hands a config file to jsonargparse's CLI over the entry point's setup() signature, which
# refuses a top-level key that is no parameter of it ("... not expected"): the parameters of setup() in every version
# of its training scripts (litgpt/finetune/*.py, litgpt/pretrain.py, and lit-gpt's finetune/*.py, pretrain/*.py before
# the rename), read at every commit that touched them
LITGPT = ("Lightning-AI+litgpt", r"^(litgpt/finetune/[a-z_0-9]+|litgpt/pretrain|finetune/[a-z_0-9]+|pretrain/[a-z_0-9]+)\.py$",
          ["litgpt/finetune", "litgpt/pretrain.py", "finetune", "pretrain"])
# keys a loader takes before the parser sees them: swift/cli/main.py parse_yaml_args pops ENV (environment variables)
EXTRA = {"ms-swift": {"ENV"}}
TRL = ("huggingface+trl", ["v0.13.0", "v0.19.0", "HEAD"], r"^trl/.*_config\.py$")
TRANSFORMERS_FILES = ("training_args.py", "training_args_seq2seq.py")


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, errors="replace").stdout


def own_fields(cls: ast.ClassDef) -> set:
    """A class's annotated attributes (a dataclass's fields), ClassVars and init=False fields left out
    (HfArgumentParser makes no option of those)."""
    out = set()
    for st in cls.body:
        if not (isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)):
            continue
        if "ClassVar" in ast.dump(st.annotation):
            continue
        v = st.value
        if isinstance(v, ast.Call) and any(k.arg == "init" and isinstance(k.value, ast.Constant) and
                                           k.value.value is False for k in v.keywords):
            continue
        if not st.target.id.startswith("_"):
            out.add(st.target.id)
    return out


class Index:
    """The classes of one snapshot's Python files; a class's fields resolved through its bases."""

    def __init__(self, repo: str, ref: str, pattern: str, external: dict):
        self.repo, self.ref, self.external = repo, ref, external
        self.files = [p for p in git(repo, "ls-tree", "-r", "--name-only", ref).splitlines() if re.match(pattern, p)]
        self.trees: dict = {}
        self.used: set = set()

    def tree(self, path: str) -> ast.Module:
        if path not in self.trees:
            try:
                self.trees[path] = ast.parse(git(self.repo, "show", f"{self.ref}:{path}"))
            except SyntaxError:
                self.trees[path] = ast.Module(body=[], type_ignores=[])
        return self.trees[path]

    def classes(self, path: str) -> dict:
        return {n.name: n for n in self.tree(path).body if isinstance(n, ast.ClassDef)}

    def imports(self, path: str) -> dict:
        out = {}
        for n in ast.walk(self.tree(path)):
            if isinstance(n, ast.ImportFrom):
                for a in n.names:
                    out.setdefault(a.asname or a.name, ("." * n.level + (n.module or ""), a.name))
        return out

    def aliases(self, path: str) -> dict:
        """`Base = Seq2SeqTrainingArguments` (LLaMA-Factory's training_args.py picks its base class that way)."""
        return {n.targets[0].id: n.value.id for n in ast.walk(self.tree(path)) if isinstance(n, ast.Assign) and
                len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Name)}

    def module_files(self, path: str, module: str) -> list:
        if module.startswith("."):
            level = len(module) - len(module.lstrip("."))
            base = path.split("/")[:-level]
            module = "/".join(base + [m for m in module.lstrip(".").split(".") if m])
        else:
            module = module.replace(".", "/")
        return [p for p in self.files if p[:-3] in (module, module + "/__init__") or p[:-3].endswith("/" + module)]

    def fields(self, name: str, path: str, depth: int = 0) -> set:
        """Fields of class `name` as seen from `path` (its own module, what it imports, else any file's)."""
        if depth > 12:
            return set()
        cls = self.classes(path).get(name)
        if cls is None and name in self.aliases(path) and name not in self.imports(path):
            return self.fields(self.aliases(path)[name], path, depth + 1)
        if cls is None:
            imp = self.imports(path).get(name)
            if imp:
                module, real = imp
                top = module.lstrip(".").split(".")[0]
                if not module.startswith(".") and top in self.external:
                    return set(self.external[top].get(real, set()))
                for p in self.module_files(path, module):
                    if real in self.classes(p) or real in self.imports(p):
                        return self.fields(real, p, depth + 1)
            for p in self.files:
                if name in self.classes(p):
                    return self.fields(name, p, depth + 1)
            return set()
        self.used.add(path)
        out = own_fields(cls)
        for b in cls.bases:
            bname = b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else None
            if bname:
                out |= self.fields(bname, path, depth + 1)
        return out

    def entry(self, names: set, where: str = "") -> set:
        out = set()
        for n in names:
            if "." in n:  # an outside class the parser is given as it is (LLaMA-Factory 0.6: transformers' own)
                top, _, real = n.partition(".")
                out |= set(self.external[top].get(real, set()))
        for p in self.files:
            if where and not re.search(where, p):
                continue
            for n in self.classes(p):
                if n in names:
                    out |= self.fields(n, p)
        return out


def setup_parameters(mirrors: str) -> tuple[set, str]:
    """LitGPT's setup() parameters over the history of its training scripts, and where they were read."""
    mirror, pattern, paths = LITGPT
    repo = os.path.join(mirrors, mirror, "repo")
    commits = git(repo, "log", "--format=%H", "HEAD", "--", *paths).split()
    keys: set = set()
    for c in commits:
        for p in git(repo, "ls-tree", "-r", "--name-only", c, "--", *paths).split():
            if not re.match(pattern, p):
                continue
            try:
                tree = ast.parse(git(repo, "show", f"{c}:{p}"))
            except SyntaxError:
                continue
            for n in tree.body:
                if isinstance(n, ast.FunctionDef) and n.name == "setup":
                    keys |= {a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs}
    head = git(repo, "rev-parse", "--short=9", "HEAD").strip()
    return keys, (f"{mirror.replace('+', '/')} at {head} and the {len(commits)} commits before it that touched "
                  f"{', '.join(paths)}: the parameters of setup() in each training script")


def transformers_classes(tf_dir: str) -> tuple[dict, list]:
    """{class name: fields} of transformers' training_args*.py, every release under tf_dir joined."""
    versions = sorted((v for v in os.listdir(tf_dir) if re.match(r"^\d+\.\d+\.\d+$", v)),
                      key=lambda v: tuple(map(int, v.split("."))))
    out: dict = {}
    for v in versions:
        trees = {}
        for f in TRANSFORMERS_FILES:
            p = os.path.join(tf_dir, v, "transformers", f)
            if os.path.exists(p):
                trees[f] = ast.parse(open(p, encoding="utf-8").read())
        own = {n.name: n for t in trees.values() for n in t.body if isinstance(n, ast.ClassDef)}

        def resolve(name, depth=0):
            c = own.get(name)
            if c is None or depth > 5:
                return set()
            got = own_fields(c)
            for b in c.bases:
                if isinstance(b, ast.Name):
                    got |= resolve(b.id, depth + 1)
            return got

        for name in own:
            out.setdefault(name, set()).update(resolve(name))
    return out, versions


def main(mirrors: str, tf_dir: str) -> None:
    tf, tf_versions = transformers_classes(tf_dir)
    trl: dict = {}
    repo = os.path.join(mirrors, TRL[0], "repo")
    for ref in TRL[1]:
        idx = Index(repo, ref, TRL[2], {"transformers": tf})
        for p in idx.files:
            for n in idx.classes(p):
                trl.setdefault(n, set()).update(idx.fields(n, p))
    external = {"transformers": tf, "trl": trl}
    out, header, read = {}, [], {}
    for trainer, parsers in TRAINERS.items():
        out[trainer] = {}
        for parser, spec in parsers.items():
            (mirror, refs, pattern), names = spec[0], spec[1]
            where = spec[2] if len(spec) > 2 else ""
            keys = set(EXTRA.get(trainer, ()))
            repo = os.path.join(mirrors, mirror, "repo")
            for ref in refs:
                idx = Index(repo, ref, pattern, external)
                keys |= idx.entry(names, where)
                commit = git(repo, "rev-parse", "--short=9", ref).strip()
                read.setdefault(mirror.replace("+", "/"), {}).setdefault(f"{ref} ({commit})", set()).update(idx.used)
            out[trainer][parser] = keys
            print(f"# {trainer} {parser}: {len(keys)} keys", file=sys.stderr)
    out["litgpt"] = {}
    out["litgpt"]["setup"], where = setup_parameters(mirrors)
    print(f"# litgpt setup: {len(out['litgpt']['setup'])} keys", file=sys.stderr)
    for repo, refs in read.items():
        header.append(f"{repo} at " + ", ".join(refs) + ": the argument classes of " +
                      ", ".join(sorted({p for ps in refs.values() for p in ps})))
    header.append("their bases: transformers' TrainingArguments / Seq2SeqTrainingArguments (src/transformers/" +
                  " and ".join(TRANSFORMERS_FILES) + ") at huggingface/transformers " +
                  ", ".join("v" + v for v in tf_versions) + " (the release wheels' copies); TRL's configs "
                  f"({TRL[0].replace('+', '/')} at {', '.join(TRL[1])}, trl/**/*_config.py) where a class inherits one")
    header.append(where)
    emit(out, header)


def emit(out: dict, header: list) -> None:
    print('"""The keys each dataclass-argument trainer\'s own parser takes from its YAML/JSON config (HfArgumentParser')
    print("over the trainer's argument dataclasses and the transformers / TRL classes they inherit).")
    print()
    print("Generated by scripts/extract_trainer_keys.py from the trainers' own source (read statically, several releases")
    print("joined); do not edit by hand. Read from:")
    for h in header:
        print("- " + h)
    print('"""')
    print()
    print("KEYS = {")
    for trainer, parsers in out.items():
        print(f"    {trainer!r}: {{")
        for parser, keys in parsers.items():
            print(f"        {parser!r}: frozenset({pack(keys)}.split()),")
        print("    },")
    print("}")


def pack(keys: set) -> str:
    words = sorted(keys)
    lines, line = [], ""
    for w in words:
        if len(line) + len(w) + 1 > 100:
            lines.append(line)
            line = ""
        line += w + " "
    lines.append(line)
    return "(\n            " + "\n            ".join(repr(x) for x in lines) + "\n        )"


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror", sys.argv[2] if len(sys.argv) > 2 else "/tmp/transformers")
