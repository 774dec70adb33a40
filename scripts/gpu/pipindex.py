#!/usr/bin/env python3
"""Download one source distribution from pip's configured index without running its setup.py.

`pip download --no-binary :all: flash-attn==X` prepares the sdist's metadata, i.e. runs its setup.py
(which imports torch, and for flash-attn tries to fetch a prebuilt wheel). This asks the same indexes
pip would ask (PIP_INDEX_URL / index-url in pip's config, else pip's own default; then every
extra-index-url), takes the file the simple index lists, and checks its sha256 against the index's.
No host is named here: the URLs come from pip's configuration.

    python3 scripts/gpu/pipindex.py flash-attn 2.8.3.post2 .gpu/src     # prints the saved path
"""

from __future__ import annotations

import hashlib
import html.parser
import json
import os
import re
import ssl
import subprocess
import sys
import urllib.parse
import urllib.request


def index_urls() -> list[str]:
    """The simple-index URLs pip would use, in pip's order: the index, then the extra indexes."""
    cfg = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True).stdout
    vals: dict[str, str] = {}
    for line in cfg.splitlines():
        key, _, val = line.partition("=")
        vals[key.split(".", 1)[-1]] = val.strip().strip("'\"")
    main = os.environ.get("PIP_INDEX_URL") or vals.get("index-url")
    if not main:
        from pip._internal.models.index import PyPI  # pip's own default index

        main = PyPI.simple_url
    extra = (os.environ.get("PIP_EXTRA_INDEX_URL") or vals.get("extra-index-url") or "").split()
    return [main] + extra


def _context() -> ssl.SSLContext:
    cert = os.environ.get("PIP_CERT")
    return ssl.create_default_context(cafile=cert) if cert and os.path.exists(cert) else ssl.create_default_context()


def _get(url: str, accept: str | None = None, timeout: float = 120) -> tuple[bytes, str]:
    req = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    with urllib.request.urlopen(req, timeout=timeout, context=_context() if url.startswith("https") else None) as r:
        return r.read(), r.headers.get("Content-Type", "")


class _Anchors(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[tuple[str, str]] = []  # (href, text)
        self._href: str | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._href = dict(attrs).get("href")

    def handle_data(self, data):
        if self._href is not None:
            self.links.append((self._href, data.strip()))
            self._href = None


def files(index: str, project: str) -> list[tuple[str, str, str | None]]:
    """(filename, absolute url, sha256 or None) of every file a simple index lists for `project`."""
    name = re.sub(r"[-_.]+", "-", project).lower()
    page = index.rstrip("/") + f"/{name}/"
    try:
        body, ctype = _get(page, "application/vnd.pypi.simple.v1+json, text/html;q=0.1")
    except (OSError, ValueError):
        return []
    out = []
    if "json" in ctype:
        for f in json.loads(body).get("files", []):
            out.append((f["filename"], urllib.parse.urljoin(page, f["url"]), (f.get("hashes") or {}).get("sha256")))
        return out
    p = _Anchors()
    p.feed(body.decode("utf-8", "replace"))
    for href, text in p.links:
        url, _, frag = href.partition("#")
        sha = frag.split("=", 1)[1] if frag.startswith("sha256=") else None
        out.append((text or url.rsplit("/", 1)[-1], urllib.parse.urljoin(page, url), sha))
    return out


def sdist(project: str, version: str, dest: str) -> str:
    base = re.sub(r"[-_.]+", "_", project).lower()
    wanted = {f"{base}-{version}.tar.gz", f"{project}-{version}.tar.gz"}
    os.makedirs(dest, exist_ok=True)
    for index in index_urls():
        for fname, url, sha in files(index, project):
            if fname not in wanted:
                continue
            path = os.path.join(dest, fname)
            if os.path.exists(path) and sha and hashlib.sha256(open(path, "rb").read()).hexdigest() == sha:
                return path
            data, _ = _get(url, timeout=600)
            got = hashlib.sha256(data).hexdigest()
            if sha and got != sha:
                raise SystemExit(f"pipindex: {fname}: sha256 {got} is not the index's {sha}")
            with open(path + ".part", "wb") as fh:
                fh.write(data)
            os.replace(path + ".part", path)
            return path
    raise SystemExit(f"pipindex: no sdist {project}=={version} on pip's indexes ({', '.join(index_urls())})")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    print(sdist(sys.argv[1], sys.argv[2], sys.argv[3]))
