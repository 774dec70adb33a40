"""Runner files as the commands they run (issue 24, round 24): a Docker Compose file's services (`entrypoint:` +
`command:`), a Kubernetes manifest's containers (`command:` + `args:`: a Job, a Pod, a Deployment, a Kubeflow
PyTorchJob, a JobSet, an Argo Workflow's `container:` / `script:`; several documents in one file), a GitHub Actions
workflow's `run:` steps, a GitLab CI pipeline's `before_script:` / `script:` lines, a RunPod pod template's start
command (`dockerArgs`, `dockerEntrypoint` + `dockerStartCmd`) and a Vast.ai template's `onstart` / `args_str`.

Each is turned into the shell lines it runs, in the file's order, which the launch-file machinery (configs/shell.py)
then reads as it reads a shell script, a Dockerfile's CMD or a cloud job's `run:`: the training command among them, the
trainer whose CLI or script it runs, its options. A runner's structure gives the command, never its file name; a
service, container or step that names no command (the image's own CMD / ENTRYPOINT runs) adds nothing."""

from __future__ import annotations

import os
import re
import shlex


def _words(v) -> list[str] | None:
    """An exec-form list of strings as words (None for anything else)."""
    if isinstance(v, list) and v and all(isinstance(w, (str, int, float)) and not isinstance(w, bool) for w in v):
        return [str(w) for w in v]
    return None


def _line(*parts) -> str | None:
    """The shell line an entrypoint and a command (Compose) or a command and args (Kubernetes) make: list forms are
    exec words (joined with the shell's quoting, so a `bash -c SCRIPT` keeps its script as one word), a string form is
    a command line as written. Nothing given: None (the image's own CMD / ENTRYPOINT runs, which the file does not
    show)."""
    out = []
    for p in parts:
        if p is None:
            continue
        w = _words(p)
        if w is not None:
            out.append(shlex.join(w))
        elif isinstance(p, str) and p.strip():
            out.append(p.strip())
    return " ".join(out) if out else None


_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _exports(pairs) -> list[str]:
    """`export NAME=value` lines for a service's / container's environment (Compose's `environment:` list of NAME=value
    or mapping, Kubernetes' `env:` list of name/value), which the command it runs sees: ACCELERATE_MIXED_PRECISION,
    CUDA_VISIBLE_DEVICES. A value the file does not give (valueFrom a secret, a bare NAME) exports nothing."""
    out = []
    items = []
    if isinstance(pairs, dict):
        items = [(k, v) for k, v in pairs.items()]
    elif isinstance(pairs, list):
        for e in pairs:
            if isinstance(e, str) and "=" in e:
                items.append(tuple(e.split("=", 1)))
            elif isinstance(e, dict) and "name" in e and "value" in e:
                items.append((e["name"], e["value"]))
            elif isinstance(e, dict) and "key" in e and "value" in e:  # (RunPod's env: [{key, value}])
                items.append((e["key"], e["value"]))
    for k, v in items:
        if isinstance(k, str) and _NAME.match(k) and isinstance(v, (str, int, float)) and not isinstance(v, bool):
            out.append(f"export {k}={shlex.quote(str(v))}")
    return out


def compose_services(data: dict) -> dict | None:
    """A Docker Compose file's services (`services:` mapping of service mappings with an image, a build or a command)."""
    services = data.get("services")
    if isinstance(services, dict) and services and all(isinstance(v, dict) for v in services.values()) and \
            any({"image", "build", "command", "entrypoint"} & set(v) for v in services.values()):
        return services
    return None


def _uncompose(v):
    """A Compose value as the container gets it: Compose's own interpolation turns `$$` into a literal `$` (which the
    container's shell then expands: `$${PREC:-fp16}` is the shell's `${PREC:-fp16}`); a `${VAR:-default}` Compose fills
    from the host's environment or .env is left for the shell, which gives it the same default."""
    if isinstance(v, str):
        return v.replace("$$", "$")
    if isinstance(v, list):
        return [_uncompose(w) for w in v]
    return v


def _compose_lines(services: dict) -> list[str]:
    lines = []
    for svc in services.values():
        line = _line(_uncompose(svc.get("entrypoint")), _uncompose(svc.get("command")))
        if line:
            lines += _exports(svc.get("environment")) + [line]
    return lines


def kube_manifest(d) -> bool:
    return isinstance(d, dict) and isinstance(d.get("apiVersion"), str) and isinstance(d.get("kind"), str)


def _container_line(c: dict) -> str | None:
    line = _line(c.get("command"), c.get("args"))
    script = c.get("source")
    if isinstance(script, str) and script.strip():
        # an Argo `script:` template: `source:` is the program its `command:` interpreter runs; a shell's is shell
        prog = _words(c.get("command")) or ["sh"]
        if os.path.basename(prog[0]) in ("sh", "bash", "zsh", "dash", "ash"):
            return script
        return None
    return line


def _kube_lines(d, out: list[str], depth: int = 0) -> None:
    """The commands of every container a manifest defines, in document order (init containers first where the pod
    spec writes them first), walking nested templates (a Job's template.spec, a PyTorchJob's replica specs, a JobSet's
    replicatedJobs, an Argo Workflow's templates)."""
    if depth > 40:
        return
    if isinstance(d, dict):
        for k, v in d.items():
            if k in ("initContainers", "containers") and isinstance(v, list):
                for c in v:
                    if isinstance(c, dict):
                        line = _container_line(c)
                        if line:
                            out += _exports(c.get("env")) + [line]
                continue
            if k in ("container", "script") and isinstance(v, dict) and ("image" in v or "command" in v or
                                                                         "source" in v):
                line = _container_line(v)
                if line:
                    out += _exports(v.get("env")) + [line]
                continue
            _kube_lines(v, out, depth + 1)
    elif isinstance(d, list):
        for v in d:
            _kube_lines(v, out, depth + 1)


def github_workflow(data: dict) -> dict | None:
    jobs = data.get("jobs")
    if isinstance(jobs, dict) and jobs and ("on" in data or True in data) and \
            any(isinstance(j, dict) and ({"runs-on", "steps", "uses"} & set(j)) for j in jobs.values()):
        return jobs
    return None


def _mapping(v) -> dict:
    return v if isinstance(v, dict) else {}


# `echo "NAME=value" >> $GITHUB_ENV` (a literal value): the workflow command that sets NAME for the job's later steps
_GITHUB_ENV = re.compile(r"^\s*echo\s+([\"']?)([A-Za-z_]\w*)=([^\"'$`\s]*)\1\s*>>\s*\"?\$\{?GITHUB_ENV\}?\"?\s*$",
                         re.MULTILINE)
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _expression(expr: str, env: dict, matrix: dict) -> str:
    """What the runner puts for `${{ expr }}` in a step's script: `env.NAME` the step's environment's value, `matrix.NAME`
    a matrix axis of one value; anything else (another axis, inputs, secrets, github) is not settled by the file,
    written as a variable no one sets (unknown, as a caller's variable is)."""
    m = re.match(r"^(env|matrix)\.([A-Za-z_][\w-]*)$", expr)
    if m:
        got = (env if m.group(1) == "env" else matrix).get(m.group(2))
        if m.group(1) == "matrix":
            # the axis's values with those `include:` entries add (an entry whose value no combination holds is a job of
            # its own: GitHub's workflow syntax, jobs.<job_id>.strategy.matrix.include; helper rev28)
            got = [*(got if isinstance(got, list) else [] if got is None else [got]),
                   *(x[m.group(2)] for x in matrix.get("include") or [] if isinstance(x, dict) and m.group(2) in x)]
            got = list(dict.fromkeys(map(str, got))) if all(isinstance(x, (str, int, float)) and not isinstance(x, bool)
                                                               for x in got) else got
        if isinstance(got, list) and len(got) == 1:
            got = got[0]
        if isinstance(got, (str, int, float)) and not isinstance(got, bool):
            return str(got)
    return "${" + "GITHUB_EXPRESSION_" + re.sub(r"\W", "_", expr)[:60] + "}"


def _github_lines(data: dict, jobs: dict) -> list[str]:
    """Each `run:` step as the runner starts it: a shell of its own (what one step sets in its shell is gone in the
    next: read as a `( ... )` subshell), whose environment is the workflow's `env:`, the job's over it, what an earlier
    step of the job wrote to $GITHUB_ENV over both ("all subsequent steps in a job will have access": the runner writes
    it into the job's environment, where the job's env: already is), and the step's `env:` over all (GitHub's workflow
    syntax: "When more than one environment variable is defined with the same name, GitHub uses the most specific
    variable"); in the working directory `working-directory` (or
    `defaults.run.working-directory`) names; the runner fills `${{ ... }}` expressions in before the shell runs
    (_expression). A step whose `shell:` is no shell (python, a custom command)
    runs no shell lines."""
    top = _mapping(data.get("env"))
    lines = []
    for job in jobs.values():
        if not isinstance(job, dict):
            continue
        steps = job.get("steps")
        written: dict = {}  # $GITHUB_ENV's values so far in this job
        run_defaults = {**_mapping(_mapping(data.get("defaults")).get("run")),
                        **_mapping(_mapping(job.get("defaults")).get("run"))}
        for step in steps if isinstance(steps, list) else []:
            run = step.get("run") if isinstance(step, dict) else None
            if not (isinstance(run, str) and run.strip()):
                continue
            sh = step.get("shell", run_defaults.get("shell"))
            if isinstance(sh, str) and not re.match(r"^(bash|sh|pwsh|powershell)\b", sh.strip()):
                continue
            # (the runner writes the workflow's and the job's env: into the job's environment when the job starts, an
            # earlier step's $GITHUB_ENV line into the same one, over them, and the step's env: over both when the step
            # starts: actions/runner src/Runner.Worker/JobExtension.cs@ae740970 InitializeJob, "Evaluate the job-level
            # environment variables"; src/Runner.Worker/FileCommandManager.cs@28a63010 SetEnvFileCommand's
            # SetEnvironmentVariable, context.Global.EnvironmentVariables[name] = value)
            env = {**top, **_mapping(job.get("env")), **written, **_mapping(step.get("env"))}
            where = step.get("working-directory", run_defaults.get("working-directory"))
            matrix = _mapping(_mapping(job.get("strategy")).get("matrix"))
            text = _EXPRESSION.sub(lambda m: _expression(m.group(1), env, matrix), run.rstrip("\n"))
            lines += ["("] + _exports(env) + ([f"cd {shlex.quote(where)}"] if isinstance(where, str) else []) + \
                [text, ")"]
            written.update((m.group(2), m.group(3)) for m in _GITHUB_ENV.finditer(run))
    return lines


_GITLAB_JOB_KEYS = {"stage", "image", "tags", "before_script", "after_script", "only", "except", "rules", "needs",
                    "variables", "when", "artifacts", "services", "extends"}


def gitlab_jobs(data: dict) -> dict | None:
    """A GitLab CI pipeline's jobs: top-level mappings with a `script:` (and a job's other keys, or `stages:` beside),
    hidden jobs (`.name`, templates) aside."""
    jobs = {k: v for k, v in data.items() if isinstance(k, str) and not k.startswith(".") and isinstance(v, dict)
            and isinstance(v.get("script"), (list, str)) and ("stages" in data or _GITLAB_JOB_KEYS & set(v))}
    return jobs or None


def _script_lines(v) -> list[str]:
    if isinstance(v, str):
        return [v.rstrip("\n")] if v.strip() else []
    if isinstance(v, list):
        return [x.rstrip("\n") for x in v if isinstance(x, str) and x.strip()]
    return []


def _gitlab_variables(v) -> dict:
    """A `variables:` mapping's values (`NAME: value`, or `NAME: {value: ..., description: ...}`)."""
    return {k: (x.get("value") if isinstance(x, dict) else x) for k, x in _mapping(v).items()}


def _gitlab_lines(data: dict, jobs: dict) -> list[str]:
    """Each job's `before_script:` and `script:` lines, one shell per job (read as a `( ... )` subshell), in the
    environment of the pipeline's `variables:` and the job's over them (GitLab CI/CD variables: a job's variable of the
    same name overrides the default one)."""
    default = data.get("default") if isinstance(data.get("default"), dict) else {}
    lines = []
    for job in jobs.values():
        before = job.get("before_script", default.get("before_script", data.get("before_script")))
        env = {**_gitlab_variables(data.get("variables")), **_gitlab_variables(job.get("variables"))}
        body = _script_lines(before) + _script_lines(job.get("script"))
        lines += ["("] + _exports(env) + body + [")"] if body else []
    return lines


def runpod_template(data: dict) -> list[str] | None:
    """A RunPod pod / template spec (GraphQL `imageName` + `dockerArgs`, the start command that overrides the image's;
    REST v2 `dockerEntrypoint` + `dockerStartCmd` lists): the command its container runs, after its `env`."""
    if not isinstance(data.get("imageName"), str):
        return None
    line = _line(data.get("dockerEntrypoint"), data.get("dockerStartCmd")) or _line(data.get("dockerArgs"))
    return _exports(data.get("env")) + [line] if line else None


_VAST_KEYS = {"runtype", "onstart", "args_str", "jup_direct", "ssh_direct", "use_ssh", "template_hash_id", "disk"}


def vast_template(data: dict) -> list[str] | None:
    """A Vast.ai template / instance spec (`image` with `onstart`, the shell its instance runs at start, and for the
    `args` runtype `args_str`, the arguments handed to the image's entrypoint): those lines, in that order."""
    if not isinstance(data.get("image"), str) or not ({"onstart", "args_str"} & set(data)) or \
            len(_VAST_KEYS & set(data)) < 2:
        return None
    lines = _script_lines(data.get("onstart"))
    if isinstance(data.get("args_str"), str) and data["args_str"].strip():
        lines.append(data["args_str"].strip())
    return lines or None


def runner_commands(data) -> tuple[str, str] | None:
    """(what the runner file is, the shell lines it runs) for a Compose file, Kubernetes manifest(s) (one mapping, or
    the list of several in one file), a GitHub Actions workflow, a GitLab CI pipeline, a RunPod or Vast.ai template
    that runs at least one command; None for anything else (and for a runner whose services / containers / steps name
    no command: the image's own command runs, which the file does not show)."""
    docs = data if isinstance(data, list) else [data]
    if docs and all(kube_manifest(d) for d in docs):
        lines: list[str] = []
        kind = None
        for d in docs:
            before = len(lines)
            _kube_lines(d, lines)
            if kind is None and len(lines) > before:
                kind = d["kind"]
        lines = list(dict.fromkeys(lines))  # once each: a PyTorchJob's Master and Worker, a JobSet's replicas run one command
        return (f"a Kubernetes manifest (kind: {kind})", "\n".join(lines)) if lines else None
    if not isinstance(data, dict):
        return None
    services = compose_services(data)
    if services:
        lines = _compose_lines(services)
        return ("a Docker Compose file", "\n".join(lines)) if lines else None
    jobs = github_workflow(data)
    if jobs:
        lines = _github_lines(data, jobs)
        return ("a GitHub Actions workflow", "\n".join(lines)) if lines else None
    gl = gitlab_jobs(data)
    if gl:
        lines = _gitlab_lines(data, gl)
        return ("a GitLab CI pipeline", "\n".join(lines)) if lines else None
    lines = runpod_template(data)
    if lines:
        return "a RunPod pod template (imageName / dockerArgs)", "\n".join(lines)
    lines = vast_template(data)
    if lines:
        return "a Vast.ai template (image / onstart)", "\n".join(lines)
    return None
