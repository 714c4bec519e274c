"""angara-tlm from Python: run an experiment, get its results as a dict; run a sweep, get a
pandas DataFrame (docs/PYTHON.md).

    import angara_tlm as at
    r = at.run({"topology": {"dims": [8, 8]}, "traffic": {"rate": 0.1}}, mode="lt")
    r["latency_cycles"]["mean"]
    df = at.sweep("configs/sweeps/load_latency_8x8.toml", out="out/curve", jobs=2)

Each call runs the installed tools (angara-sim, angara-sweep) as programs with arguments, never
through a shell. A config is a dict of sections (written to a TOML file in a private temporary
directory) or a TOML file's path; `set` overrides keys as angara-sim's --set does. Bad input
raises ConfigError and a model failure ModelError, with the tools' own messages.
"""

import json
import math
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["run", "sweep", "collect", "config", "tools", "AngaraError", "ConfigError",
           "ModelError", "to_toml"]


class AngaraError(Exception):
    """A tool failed: `message` is what it said, `status` its exit status."""

    def __init__(self, message, status):
        super().__init__(message)
        self.message = message
        self.status = status


class ConfigError(AngaraError):
    """Bad input (exit status 2): the message names the key, the value and the rule."""


class ModelError(AngaraError):
    """The model stopped the run (exit status 3): a deadlock, a lost packet, a failed check."""


def tools():
    """The directory holding angara-sim and angara-sweep: $ANGARA_BIN, else the bin directory of
    the prefix this module is installed in, else the one on PATH."""
    env = os.environ.get("ANGARA_BIN")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    for prefix in here.parents:
        if (prefix / "bin" / "angara-sim").is_file():
            return prefix / "bin"
    found = shutil.which("angara-sim")
    if found:
        return Path(found).resolve().parent
    raise FileNotFoundError("angara-sim not found: set ANGARA_BIN to the directory holding it "
                            "(for a build tree, build/sc_main)")


def _value(v):
    """A TOML value: booleans, integers, floats, strings and arrays of them."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise ValueError(f"{v} has no place in a config")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a TOML basic string: JSON's escapes are TOML's
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"a config value must be a bool, number, string or list, not {type(v)}")


def _key(k):
    k = str(k)
    return k if k and all(c.isalnum() or c in "_-" for c in k) else json.dumps(k)


def to_toml(config):
    """The TOML text of a config dict: {"section": {"key": value}} and, for arrays of tables
    such as [[collective.tree]], lists of dicts."""
    lines = []

    def table(path, d):
        scalars = [(k, v) for k, v in d.items() if not isinstance(v, dict) and not _tables(v)]
        if path and (scalars or not d):
            lines.append("[" + ".".join(_key(p) for p in path) + "]")
        for k, v in scalars:
            lines.append(f"{_key(k)} = {_value(v)}")
        for k, v in d.items():
            if isinstance(v, dict):
                table(path + [k], v)
            elif _tables(v):
                for item in v:
                    lines.append("[[" + ".".join(_key(p) for p in path + [k]) + "]]")
                    for ik, iv in item.items():
                        if isinstance(iv, dict) or _tables(iv):
                            raise TypeError(f"{k}: tables inside an array of tables are not "
                                            "written; give the config as a TOML file")
                        lines.append(f"{_key(ik)} = {_value(iv)}")

    if not isinstance(config, dict):
        raise TypeError("a config is a dict of sections")
    table([], config)
    return "\n".join(lines) + "\n"


def _tables(v):
    return isinstance(v, (list, tuple)) and len(v) > 0 and all(isinstance(x, dict) for x in v)


def _overrides(set):
    """--set arguments for {"section.key": value}."""
    args = []
    for k, v in (set or {}).items():
        args += ["--set", f"{k}={_value(v)}"]
    return args


def _call(args, what):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode == 0:
        return done
    message = done.stderr.strip() or done.stdout.strip() or f"{what} exited {done.returncode}"
    for prefix in ("angara-sim: ", "angara-sweep: "):
        message = message[len(prefix):] if message.startswith(prefix) else message
    if done.returncode == 2:
        raise ConfigError(message, 2)
    if done.returncode == 3:
        raise ModelError(message, 3)
    raise AngaraError(message, done.returncode)


def _with_config(config, directory, name):
    """The config as a file: its path as given, or a dict written into `directory`."""
    if isinstance(config, dict):
        path = Path(directory) / name
        path.write_text(to_toml(config))
        return str(path)
    if isinstance(config, (str, os.PathLike)):
        return str(config)
    raise TypeError("a config is a dict of sections or a TOML file's path")


def _sim(command, config, set, mode, work):
    """angara-sim COMMAND's arguments for a config, its overrides and a mode."""
    args = [str(tools() / "angara-sim"), command]
    if config is not None:
        args.append(_with_config(config, work, "config.toml"))
    if mode is not None:
        args += ["--mode", str(mode)]
    return args + _overrides(set)


def run(config=None, set=None, mode=None, out=None):
    """Runs one experiment (angara-sim run) and returns its results as a dict.

    config: a dict of sections, a TOML file's path, or None for the defaults. set: overrides,
    {"traffic.rate": 0.2, ...}. mode: "at" or "lt". out: also keep the results file there (over
    earlier results or nothing)."""
    with tempfile.TemporaryDirectory(prefix="angara-") as work:
        results = Path(out) if out is not None else Path(work) / "results.json"
        _call(_sim("run", config, set, mode, work) + ["--quiet", "--out", str(results)],
              "angara-sim")
        return json.loads(results.read_text())


def config(config=None, set=None, mode=None):
    """The whole configuration a run would use, every key with its value (angara-sim config), as
    a dict: a way to check a config and its overrides before running it."""
    with tempfile.TemporaryDirectory(prefix="angara-") as work:
        toml_text = _call(_sim("config", config, set, mode, work), "angara-sim").stdout
    import tomllib
    return tomllib.loads(toml_text)


def collect(directory):
    """The results of a sweep directory's points (angara-sweep collect) as a pandas DataFrame:
    a row per point with its axis values, its status and every result field."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("collect and sweep give a pandas DataFrame: install python3-pandas") from e
    _call([str(tools() / "angara-sweep"), "collect", str(directory)], "angara-sweep")
    return pandas.read_csv(Path(directory) / "results.csv", keep_default_na=False,
                           na_values=[""])


def sweep(sweep, out, jobs=None):
    """Runs a sweep (angara-sweep run) and returns collect(its directory). sweep: a sweep file's
    path, or a dict as such a file holds ({"sweep": {...}, "config": {...}, "axis": [...]}, its
    base, if any, relative to the current directory); out: the directory it runs in (a rerun
    resumes it). jobs: points at once (default: every core)."""
    out = Path(out)
    with tempfile.TemporaryDirectory(prefix="angara-") as work:
        if isinstance(sweep, dict):
            spec = dict(sweep)
            base = spec.get("sweep", {}).get("base")
            if base is not None:  # relative to the sweep file, which is in `work`
                spec["sweep"] = dict(spec["sweep"], base=str(Path(base).resolve()))
            path = _with_config(spec, work, out.name + ".toml")
        else:
            path = str(sweep)
        args = [str(tools() / "angara-sweep"), "run", path, "--out", str(out)]
        if jobs is not None:
            args += ["-j", str(jobs)]
        _call(args, "angara-sweep")
    return collect(out)
