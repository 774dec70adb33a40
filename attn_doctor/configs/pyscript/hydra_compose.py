"""Hydra's composition of an app's config, as a launch runs it (cfg87): the primary config's defaults list, each chosen
config group's file from the config folder, the launch's overrides winning, merged into the one mapping the app's
`@hydra.main` function is handed. Written from Hydra's documentation (hydra.cc 1.3, "The Defaults List", "Override
grammar/Basic", "Packages", upgrades/1.0_to_1.1 "Default composition order"), not from its code:

- a config's `defaults:` list entries: `_self_` (where the config's own keys merge; absent, they merge last: Hydra >= 1.1),
  `GROUP: OPTION` (GROUP/OPTION.yaml, relative to the config's own group, absolute with a leading `/`), `GROUP@PKG:
  OPTION`, `optional GROUP: OPTION` (nothing when the file does not exist), `override GROUP: OPTION` (changes another
  entry's option), `GROUP: null` (nothing), `GROUP: [A, B]` (both), and a plain config name (`base`, `db/mysql`);
- a group file's content goes under its package: the group's path (`model/attn` -> `model.attn`) unless the entry names
  one (`@PKG`, relative to the containing config's) or the file's `# @package` header does (`_global_`: the root);
- the launch's overrides: `GROUP=OPTION` (an entry of the defaults list), `+GROUP=OPTION` (a group appended), `~GROUP`,
  `KEY=VALUE` (a value set after composition), `+KEY=VALUE` (added), `++KEY=VALUE` (added or set), `~KEY` (deleted);
  `+GROUP=OPTION` of a group the defaults list has and `+KEY=VALUE` where the config holds a value are refused, as Hydra
  refuses them ("Could not add ... is already in the defaults list", "Could not append to config. An item is already at");
- later wins; mappings merge key by key (OmegaConf.merge).

A file the composition needs that is not here (a chosen option's, or one a shell variable picks: `model=$MODEL`) leaves
everything under its package unknown (UNSEEN in that mapping) and is named in `missing`: the getter's default in the
script is not what the run reads. `compose` imports nothing of pyscript (the layer before settings_files)."""

from __future__ import annotations

import re

# the key a composed mapping holds when a file that could have set more keys in it is not here
UNSEEN = "<hydra: keys of a file not here>"

# Hydra's override: `+`/`++`/`~` prefix, key (dots for a value, slashes for a group), `@package`, `=value`
_OVERRIDE = re.compile(r"^(\+\+|\+|~)?([A-Za-z_][\w./-]*)(?:@([\w.]*))?(?:=(.*))?$", re.S)
_PACKAGE = re.compile(r"^\s*#\s*@package\s+(\S+)", re.M)
_INTERPOLATION = re.compile(r"^\$\{([A-Za-z_][\w.]*)\}$")


class Refused(Exception):
    """A launch whose overrides Hydra would not run (a group the defaults list does not name, `KEY=VALUE` of a key
    the composed config does not have): the message says which."""


def parse_override(word: str):
    """(prefix, key, package or None, value text or None) of one Hydra override, or None for a word that is not one."""
    m = _OVERRIDE.match(word)
    if not m or m.group(4) is None and m.group(1) != "~":
        return None
    return m.group(1) or "", m.group(2), m.group(3), m.group(4)


def config_flags(words: list) -> tuple[str | None, str | None, str | None, list]:
    """(config name, config path, config dir, the other words) of a launch's Hydra flags, each None when not given
    (hydra.cc 1.3, "Hydra's command line flags"; facebookresearch/hydra hydra/_internal/utils.py, get_args_parser and
    _run_hydra): `--config-name` / `-cn` replaces the decorator's config_name (`.yaml` may be written or not);
    `--config-path` / `-cp` replaces its config_path (absolute, or relative to the Python file declaring
    @hydra.main); `--config-dir` / `-cd` adds a folder to the config search path (made absolute from the working
    directory), searched after the app's own (`search_path.prepend(..., anchor=SearchPathQuery(provider="schema"))`:
    before the structured configs, after the app's folder). Each flag is argparse's: its last value wins. A value the
    run fills in (`-cp $CONF`) raises Refused."""
    found: dict = {}
    rest, it = [], iter(words)
    for w in it:
        w = str(w)
        flag, eq, val = w.partition("=")
        key = {"--config-name": "name", "-cn": "name", "--config-path": "path", "-cp": "path", "--config-dir": "dir",
               "-cd": "dir"}.get(flag)
        if key is None:
            rest.append(w)
            continue
        found[key] = val if eq else next(it, "")
        if not found[key] or _unknown_text(found[key]):
            raise Refused(f"{flag}: chosen at run time")
    name = found.get("name")
    return (name[:-5] if name and name.endswith(".yaml") else name), found.get("path"), found.get("dir"), rest


def _unknown_text(text: str) -> bool:
    """A value the shell or the run fills in (`$MODEL`, `` `cmd` ``), or a sweep (`a,b`), unknown here."""
    return "$" in text and not _INTERPOLATION.match(text) or "`" in text or \
        ("," in text and not text.strip().startswith(("[", "{", "'", '"')))


def override_value(text: str):
    """A Hydra override's value as the app sees it (`true` -> True, `1e-4` -> 0.0001, `null` -> None, `'x'` -> "x",
    `[a,b]` -> a list); UNSEEN for a value filled in at run time."""
    import yaml

    if _unknown_text(text):
        return UNSEEN
    try:
        return yaml.safe_load(text) if text.strip() else ""
    except Exception:  # (yaml raises its own errors and ValueError for odd scalars)
        return text


class _Composer:
    def __init__(self, load, choices: dict, appended: list):
        self.load = load  # rel path -> (data, header package or None), or None when not here
        self.choices = choices  # absolute group -> option (the command line's, then the defaults lists' overrides)
        self.appended = appended  # (group, package or None, option) the command line appends (`+group=option`)
        self.found_overrides: dict = {}
        self.groups: set = set()
        self.entries: set = set()  # (group, package or None) of each defaults-list entry, as `+GROUP@PKG=...` names one
        self.missing: list = []
        self.out: dict = {}

    def config(self, path: str, package: str | None, primary: bool = False, optional: bool = False, depth: int = 0):
        """Merge the config at `path` (under the config folder, without .yaml) and its defaults list into self.out."""
        group = path.rsplit("/", 1)[0] if "/" in path else ""
        got = self.load(path + ".yaml") if depth < 8 else None
        if got is None:
            if not optional:
                self._unseen(package if package is not None else group.replace("/", "."), path + ".yaml")
            return
        data, header = got
        if header == "_global_" or primary:
            package = ""
        elif header and header.startswith("_global_."):
            package = header[len("_global_."):]
        elif header and header != "_group_":
            package = header
        elif package is None:
            package = group.replace("/", ".")
        defaults = data.get("defaults") if isinstance(data.get("defaults"), list) else []
        entries = [e for e in defaults if e != "_self_"]
        if "_self_" not in defaults:
            entries.append("_self_")  # (Hydra >= 1.1: a config's own keys win over its defaults list)
        else:
            entries = list(defaults)
        if primary:
            entries += [{(f"{g}@{p}" if p else g): o} for g, p, o in self.appended]
        for e in entries:
            if e == "_self_":
                self._merge(package, {k: v for k, v in data.items() if k != "defaults"})
            elif isinstance(e, str):
                # a config by name (`base`, `db/mysql`, `db/mysql@backup`): relative to this config's folder
                name, _, pkg = e.partition("@")
                where = name.lstrip("/") if name.startswith("/") else "/".join(x for x in (group, name) if x)
                sub = where.rsplit("/", 1)[0].replace("/", ".") if "/" in name.strip("/") else package
                self.config(where, self._package(package, pkg) if pkg else sub, depth=depth + 1)
            elif isinstance(e, dict) and len(e) == 1:
                self._group(e, group, package, depth)

    def _group(self, entry: dict, here: str, package: str, depth: int):
        (key, option), = entry.items()
        words = str(key).split()
        flag = words[0] if len(words) == 2 and words[0] in ("optional", "override") else None
        name, _, pkg = words[-1].partition("@")
        absolute = name.strip("/") if name.startswith("/") else "/".join(x for x in (here, name) if x)
        if absolute == "hydra" or absolute.startswith("hydra/"):
            return  # Hydra's own settings (its launcher, logging, sweeper)
        if flag == "override":
            self.found_overrides.setdefault(absolute, option)
            return
        self.groups.add(absolute)
        self.entries.add((absolute, pkg or None))
        option = self.choices.get(absolute, option)
        into = self._package(package, pkg) if pkg else absolute.replace("/", ".")
        if option is None:
            return
        if option == "???" or option is UNSEEN or isinstance(option, str) and _unknown_text(option):
            # a mandatory choice the launch leaves open, or one a shell variable makes
            self._unseen(into, f"{absolute}/{option if isinstance(option, str) and option != '???' else '?'}.yaml")
            return
        for o in option if isinstance(option, list) else [option]:
            self.config(f"{absolute}/{o}", into, optional=flag == "optional", depth=depth + 1)

    @staticmethod
    def _package(parent: str, pkg: str) -> str:
        if pkg == "_global_" or pkg.startswith("_global_."):
            return pkg[len("_global_."):] if "." in pkg else ""
        return ".".join(x for x in (parent, pkg) if x)

    def _node(self, package: str, create: bool = True):
        node = self.out
        for part in [p for p in package.split(".") if p]:
            if not isinstance(node.get(part), dict):
                if not create:
                    return None
                node[part] = {}
            node = node[part]
        return node

    def _merge(self, package: str, data: dict):
        _merge(self._node(package), data)

    def _unseen(self, package: str, file: str):
        node = self._node(package)
        node.clear()  # (whatever was merged there before, the missing file may have set again)
        node[UNSEEN] = True
        if file not in self.missing:
            self.missing.append(file)


def _merge(into: dict, data: dict):
    for k, v in data.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            _merge(into[k], v)
        else:
            into[k] = _copy(v)


def _copy(v):
    return {k: _copy(x) for k, x in v.items()} if isinstance(v, dict) else list(v) if isinstance(v, list) else v


def _compose_once(load, primary: str, choices: dict, appended: list) -> _Composer:
    c = _Composer(load, dict(choices), appended)
    c.config(primary, "", primary=True)
    for _ in range(3):
        # `override GROUP: OPTION` in a defaults list (an experiment file's): the option that group is composed with,
        # the command line's choice still winning
        new = {g: o for g, o in c.found_overrides.items() if g not in choices and c.choices.get(g) != o}
        if not new:
            break
        c = _Composer(load, {**c.choices, **new}, appended)
        c.config(primary, "", primary=True)
    return c


def compose(load, primary: str, overrides: list, environ: dict | None = None) -> tuple[dict, list]:
    """(the composed config, the files it needs that are not here) of the app whose primary config is `primary` (a
    path under the config folder, without .yaml) launched with `overrides` (Hydra's words). load: a path under the
    config folder -> (its mapping, its `# @package` header or None), or None when it is not here. environ: the
    variables the launch puts in the app's environment (`${oc.env:VAR}`). Raises Refused for overrides Hydra refuses;
    the caller has checked that the primary config is here."""
    first = _compose_once(load, primary, {}, [])
    choices, appended, values, deletes = {}, [], [], []
    for w in overrides:
        p = parse_override(str(w))
        if p is None:
            raise Refused(f"{w} is not a Hydra override")
        prefix, key, pkg, text = p
        if key == "hydra" or key.startswith(("hydra.", "hydra/")):
            continue
        group = key.strip("/")
        if prefix == "~" and group in first.groups:
            choices[group] = None
        elif prefix == "" and group in first.groups:
            v = override_value(text)
            choices[group] = v if isinstance(v, list) or v is None else text  # (an option is a name: `model=7b`)
        elif prefix == "+" and "." not in key and text is not None and not _unknown_text(text) and \
                load(f"{group}/{text}.yaml") is not None:
            if (group, pkg or None) in first.entries:
                # Hydra: "Could not add 'db=mysql'. 'db' is already in the defaults list." (rev21b)
                raise Refused(f"{w}: {group} is already in the defaults list (Hydra asks for {w[1:]})")
            appended.append((group, pkg, text))
        elif prefix == "" and "." not in key and "/" not in key and load(f"{group}/{text}.yaml") is not None:
            raise Refused(f"{w}: the defaults list chooses no option of {group} (Hydra asks for +{w})")
        elif prefix == "~":
            deletes.append(key)
        else:
            values.append((prefix, key, override_value(text)))
    c = _compose_once(load, primary, choices, appended) if choices or appended else first
    out = c.out
    for prefix, key, v in values:
        parts = key.split(".")
        node = out
        for part in parts[:-1]:
            if not isinstance(node.get(part), dict):
                if prefix == "" and UNSEEN not in node:
                    raise Refused(f"{key}: the composed config has no {part} (Hydra asks for +{key}=...)")
                node[part] = {}
            node = node[part]
        if prefix == "" and parts[-1] not in node and UNSEEN not in node:
            raise Refused(f"{key}: the composed config has no such key (Hydra asks for +{key}=...)")
        if prefix == "+" and node.get(parts[-1]) is not None and not isinstance(v, (dict, list)):
            # Hydra: "Could not append to config. An item is already at 'x'." (a value at null, or a mapping or a list
            # merged in, it takes; rev21b)
            raise Refused(f"{key}: the composed config already has a value there (Hydra asks for {key}=... or ++{key}=...)")
        if isinstance(v, dict) and isinstance(node.get(parts[-1]), dict):
            _merge(node[parts[-1]], v)  # (OmegaConf.update(..., merge=True): a mapping merges key by key)
        else:
            node[parts[-1]] = v
    for key in deletes:
        parts = key.split(".")
        node = c._node(".".join(parts[:-1]), create=False)
        if isinstance(node, dict):
            node.pop(parts[-1], None)
    _interpolate(out, out, environ or {})
    return out, c.missing


# OmegaConf's environment resolver written as a whole value: `${oc.env:VAR}`, `${oc.env:VAR,default}`
_OC_ENV = re.compile(r"^\$\{oc\.env:\s*([A-Za-z_]\w*)\s*(?:,\s*(.*?)\s*)?\}$", re.S)


def oc_env(text: str, environ: dict):
    """The value of `${oc.env:VAR,default}` as OmegaConf's oc.env resolver gives it (omegaconf docs, "Built-in
    resolvers", oc.env: the variable's value, a string; else the default, converted to a string unless it is null):
    VAR as the launch sets it for the app (environ), else the default, else UNSEEN (the run's environment decides, not
    known here). None when `text` is no such interpolation."""
    m = _OC_ENV.match(text)
    if not m:
        return None
    if isinstance(environ.get(m.group(1)), str):
        return environ[m.group(1)]
    default = m.group(2)
    if default is None or "${" in default:
        return UNSEEN
    if default == "null":
        return None
    return default[1:-1] if len(default) >= 2 and default[0] == default[-1] and default[0] in "'\"" else default


def _interpolate(node, root, environ: dict, depth: int = 0):
    """`${model.attn}` written as a whole value: the value it names in the composed config (OmegaConf resolves it when
    the app reads it), `${oc.env:VAR,default}` the environment's (oc_env); one it cannot settle here is UNSEEN."""
    for k, v in list(node.items()) if isinstance(node, dict) and depth < 12 else ():
        if isinstance(v, dict):
            _interpolate(v, root, environ, depth + 1)
        elif isinstance(v, str) and _OC_ENV.match(v):
            node[k] = oc_env(v, environ)
        elif isinstance(v, str) and "${" in v:
            m = _INTERPOLATION.match(v)
            got = root
            for part in m.group(1).split(".") if m else ["<none>"]:
                got = got.get(part, UNSEEN) if isinstance(got, dict) else UNSEEN
            node[k] = got if not isinstance(got, (dict, list)) and got is not root and not \
                (isinstance(got, str) and "${" in got) else UNSEEN


def header_package(text: str) -> str | None:
    """The `# @package X` header of a Hydra config file (in its first lines, before any key), or None."""
    head = []
    for line in text.splitlines()[:20]:
        if line.strip() and not line.lstrip().startswith("#"):
            break
        head.append(line)
    m = _PACKAGE.search("\n".join(head))
    return m.group(1) if m else None
