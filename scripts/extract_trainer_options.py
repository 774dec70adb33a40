"""Regenerate attn_doctor/configs/options.py: every command-line option each trainer's training scripts define,
read statically (ast) from the trainers' own repositories, so attn-doctor can resolve a saved command line the
way the trainer's argparse does (unique-prefix abbreviations, unknown options, which options take a value).

Usage: python scripts/extract_trainer_options.py MIRRORS_DIR > attn_doctor/configs/options.py
MIRRORS_DIR holds bare clones (kohya-ss+sd-scripts/repo, kohya-ss+musubi-tuner/repo, huggingface+diffusers/repo).
Nothing is imported or run: only add_argument calls reachable from each script's __main__ block are read.
Several releases of each trainer are read and their options joined, so a flag an older release had is not
reported as unknown (a flag none of them has is)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

# trainer -> (mirror, releases read, which files are training scripts)
TRAINERS = {
    "sd-scripts": ("kohya-ss+sd-scripts", ["v0.8.7", "v0.9.1", "HEAD"],
                   r"^([a-z0-9]+_)?train(_network|_db|_textual_inversion|_control_net(_lllite)?)?\.py$|^fine_tune\.py$"),
    "musubi": ("kohya-ss+musubi-tuner", ["v0.2.0", "v0.3.4", "HEAD"], r"^(src/musubi_tuner/)?[a-z0-9_]+_train(_network)?\.py$"),
    "diffusers": ("huggingface+diffusers", ["v0.30.0", "v0.35.0", "HEAD"],
                  r"^examples/[a-z0-9_]+/(train_[a-z0-9_]+|textual_inversion(_sdxl)?)\.py$"),
}


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, errors="replace").stdout


def kind_of(call: ast.Call) -> str:
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    action = kw.get("action")
    if isinstance(action, ast.Constant) and action.value in ("store_true", "store_false", "store_const", "count",
                                                              "help", "version", "append_const"):
        return "f"
    nargs = kw.get("nargs")
    if isinstance(nargs, ast.Constant):
        if nargs.value in ("*", "+") or isinstance(nargs.value, int) and nargs.value > 1:
            return "*"
        if nargs.value == "?":
            return "?"
    return "1"


FOLLOW = ("parser", "argument", "args", "main")


class Index:
    """Every function in the snapshot's Python files, by name (last definition wins, as imports usually do)."""

    def __init__(self, repo: str, ref: str):
        self.repo, self.ref = repo, ref
        self.files = [p for p in git(repo, "ls-tree", "-r", "--name-only", ref).splitlines() if p.endswith(".py")]
        self.funcs: dict[str, dict[str, ast.FunctionDef]] = {}
        self.trees: dict[str, ast.Module] = {}

    def tree(self, path: str):
        if path not in self.trees:
            try:
                self.trees[path] = ast.parse(git(self.repo, "show", f"{self.ref}:{path}"))
            except SyntaxError:
                self.trees[path] = ast.Module(body=[], type_ignores=[])
        return self.trees[path]

    def module_funcs(self, path: str) -> dict:
        if path not in self.funcs:
            self.funcs[path] = {n.name: n for n in ast.walk(self.tree(path)) if isinstance(n, ast.FunctionDef)}
        return self.funcs[path]

    def imports(self, path: str) -> dict:
        """{name as used in the file: dotted module it comes from} for the file's imports."""
        out = {}
        for n in ast.walk(self.tree(path)):
            if isinstance(n, ast.ImportFrom) and n.module:
                for a in n.names:
                    out[a.asname or a.name] = n.module  # a function: its module; a module: its package
                    out.setdefault("." + (a.asname or a.name), n.module + "." + a.name)
            elif isinstance(n, ast.Import):
                for a in n.names:
                    out["." + (a.asname or a.name.split(".")[0])] = a.name
        return out

    def files_of(self, dotted: str) -> list:
        tail = dotted.replace(".", "/")
        return [p for p in self.files if any(p[:-3] == t or p[:-3].endswith("/" + t) for t in (tail, tail + "/__init__"))]

    def find(self, name: str, near: str, module: str | None, depth: int = 0) -> list:
        """Where the called function is defined: the calling file, the module its import names, else any file."""
        imports = self.imports(near)
        if module is None:
            own = self.module_funcs(near).get(name)
            if own is not None:
                return [(near, own)]
            places = self.files_of(imports[name]) if name in imports else []
        else:
            dotted = imports.get("." + module) or imports.get(module) or module
            places = self.files_of(dotted) or self.files_of(module)
        for p in places:
            f = self.module_funcs(p).get(name)
            if f is not None:
                return [(p, f)]
            if name in self.imports(p) and depth < 3:  # re-exported: follow that module's import
                return self.find(name, p, None, depth + 1)
        for p in self.files:
            if not (p.startswith(("tests/", "test/")) or "/tests/" in p) and name in self.module_funcs(p):
                return [(p, self.module_funcs(p)[name])]
        return []


def collect(index: Index, path: str, nodes, seen: set, opts: dict):
    for node in nodes:
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            fn = call.func
            if isinstance(fn, ast.Attribute) and fn.attr == "add_argument":
                names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                for n in names:
                    if n.startswith("--"):
                        opts[n[2:]] = kind_of(call)
                continue
            name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else None
            module = fn.value.id if isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) else None
            if not name or not any(w in name.lower() for w in FOLLOW):
                continue
            if isinstance(fn, ast.Attribute) and name in ("parse_args", "parse_known_args", "add_argument_group"):
                continue  # argparse's own methods
            for p, f in index.find(name, path, module):
                if (p, f.name) in seen:
                    continue
                seen.add((p, f.name))
                collect(index, p, f.body, seen, opts)


def script_options(index: Index, path: str) -> dict:
    tree = index.tree(path)
    main = [n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.dump(n.test)]
    opts: dict = {}
    collect(index, path, main, set(), opts)
    return opts


def main(mirrors: str) -> None:
    out: dict = {}
    import re

    for trainer, (mirror, refs, pattern) in TRAINERS.items():
        repo = os.path.join(mirrors, mirror, "repo")
        tables: dict = {}
        for ref in refs:
            index = Index(repo, ref)
            for p in index.files:
                if not re.match(pattern, p):
                    continue
                stem = os.path.splitext(os.path.basename(p))[0]
                opts = script_options(index, p)
                if len(opts) < 5:
                    continue
                tables.setdefault(stem, {}).update(opts)
        out[trainer] = tables
        print(f"# {trainer}: {len(tables)} scripts from {mirror} at {', '.join(refs)}", file=sys.stderr)
    emit(out)


def emit(out: dict) -> None:
    # Options shared by many scripts of a trainer are stored once (COMMON), each script lists the rest.
    print('"""Command-line options of the trainers\' training scripts, as their argparse parsers define them.')
    print()
    print("Generated by scripts/extract_trainer_options.py from the trainers' own source (read statically, several")
    print("releases joined); do not edit by hand. Each option maps to what follows it on a command line: f (a flag,")
    print('no value), 1 (one value), ? (an optional value), * (one or more values)."""')
    print()
    print("OPTIONS = {")
    for trainer, tables in out.items():
        counts: dict = {}
        for opts in tables.values():
            for k, v in opts.items():
                counts[(k, v)] = counts.get((k, v), 0) + 1
        common = {k: v for (k, v), n in counts.items() if n >= max(2, len(tables) // 2)}
        print(f"    {trainer!r}: {{")
        print(f"        '': {pack(common)},")
        for script in sorted(tables):
            rest = {k: v for k, v in tables[script].items() if common.get(k) != v}
            print(f"        {script!r}: {pack(rest)},")
        print("    },")
    print("}")


def pack(opts: dict) -> str:
    """{option: kind} as one string 'name:k name:k ...' (compact in the source; options.py unpacks it)."""
    return repr(" ".join(f"{k}:{v}" for k, v in sorted(opts.items())))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror")
