"""Copy the gathered real-error corpus into fixtures/errors/ (issue 11), keeping each file as it is
and adding an `entry:` line: the knowledge entry the file's text should get.

    python scripts/sync_error_corpus.py [/work/corpus]      # copies new files, keeps existing ones
    python scripts/sync_error_corpus.py --fill              # proposes an entry where a fixture says `entry: ?`

The gatherers' format is /work/helpers/ERRFORMAT.md (fixtures/errors/README.md repeats it). For a new
file the proposed `entry:` is explain's top match when it names the file's backend (for `backend:
none`, a match with no backend), else `entry: ?` for a person to fill in; an existing fixture is never
rewritten, so entries set by hand stay.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attn_doctor.explain import match  # noqa: E402

DEST = ROOT / "fixtures" / "errors"


def proposed_entry(header: str, body: str) -> str:
    backend = next((line.split(":", 1)[1].strip() for line in header.splitlines() if line.startswith("backend:")), "")
    found = match(body)
    if found and (found[0].backend == backend or (backend == "none" and found[0].backend is None)):
        return found[0].entry.id
    return "?"


def sync(src: Path) -> tuple[int, int]:
    new = kept = 0
    for kind, dest in (("errors", DEST), ("unrelated", DEST / "unrelated")):
        dest.mkdir(parents=True, exist_ok=True)
        for path in sorted((src / kind).glob("*.txt")):
            target = dest / path.name
            if target.exists():
                kept += 1
                continue
            text = path.read_text(encoding="utf-8")
            header, sep, body = text.partition("\n---\n")
            if not sep:
                print(f"skipped (no '---' line): {path}", file=sys.stderr)
                continue
            if kind == "errors" and "\nentry:" not in "\n" + header:
                header += f"\nentry: {proposed_entry(header, body)}"
            tmp = target.with_suffix(".tmp")
            tmp.write_text(header + sep + body, encoding="utf-8")
            tmp.replace(target)
            new += 1
    return new, kept


def fill() -> int:
    n = 0
    for path in sorted(DEST.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        header, sep, body = text.partition("\n---\n")
        lines = header.splitlines()
        if "entry: ?" not in lines:
            continue
        guess = proposed_entry(header, body)
        if guess != "?":
            lines[lines.index("entry: ?")] = f"entry: {guess}"
            tmp = path.with_suffix(".tmp")
            tmp.write_text("\n".join(lines) + sep + body, encoding="utf-8")
            tmp.replace(path)
            n += 1
    return n


if __name__ == "__main__":
    if sys.argv[1:] == ["--fill"]:
        print(f"{fill()} entries proposed")
    else:
        n, k = sync(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/corpus"))
        print(f"{n} new, {k} already here")
