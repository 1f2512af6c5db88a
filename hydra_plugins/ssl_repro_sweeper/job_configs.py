"""A sweep's job configurations, composed by Hydra once per distinct choice of config groups.

Hydra's basic sweeper composes every job's configuration from scratch to validate it, about 0.1 s a
job: pcmac's 770-job learning curve spent over a minute there before its first job started.  The jobs
of a sweep mostly differ in plain values only (``split=3 n_labeled=29``), so here the jobs are grouped
by their other overrides (config-group choices such as ``method=da``, additions ``+key=``, deletions,
anything under ``hydra``): each group's configuration is composed by Hydra once, as a template, and
each job's value overrides are applied to a copy of it, as Hydra itself applies value overrides after
composing the defaults (``OmegaConf.update(..., merge=True)``).

Nothing is taken on trust: the first job of every template is also composed by Hydra in full, and its
configuration and folder must equal the template's (else :class:`TemplateMismatch`); a value override
naming a key the template lacks (which Hydra refuses without ``+``) is composed by Hydra in full, so
its error is Hydra's own.  The launcher still composes each job in full when it runs it.
"""
import copy
from dataclasses import dataclass
from pathlib import Path

from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.core.override_parser.types import OverrideType, ValueType
from omegaconf import OmegaConf, open_dict
from omegaconf.errors import OmegaConfBaseException

_MISSING = object()


class TemplateMismatch(RuntimeError):
    """A job composed from its template differs from Hydra's own composition of it."""


@dataclass(frozen=True)
class JobConfig:
    """One job of a sweep: its folder (``hydra.sweep.dir``/``hydra.sweep.subdir``, resolved) and its
    task configuration (resolved, without ``hydra``: what the job sees)."""

    directory: Path
    task: dict


def is_value_override(override, repository):
    """True for a plain ``key=value`` change of a non-group key outside ``hydra``: what a template
    copy can take by :func:`omegaconf.OmegaConf.update`."""
    key = override.key_or_group
    return (override.type == OverrideType.CHANGE and override.value_type == ValueType.ELEMENT
            and override.package is None and not key.startswith("hydra")
            and not repository.group_exists(key.replace(".", "/")))


def _job_config(config):
    """The :class:`JobConfig` of a composed configuration (resolving its folder and its task)."""
    directory = Path(str(config.hydra.sweep.dir)) / str(config.hydra.sweep.subdir)
    with open_dict(config):
        del config["hydra"]
    return JobConfig(directory.resolve(), OmegaConf.to_container(config, resolve=True))


class JobConfigs:
    """Compose the configurations of a sweep's jobs (lists of override strings), a template each."""

    def __init__(self, loader, master_config):
        self.loader, self.master = loader, master_config
        self.parser = OverridesParser.create(config_loader=loader)
        self.templates, self.parsed = {}, {}
        self.composed_in_full = 0

    def parse(self, override):
        """(the parsed override, whether it is a value override): each distinct string parsed once."""
        if override not in self.parsed:
            parsed = self.parser.parse_override(override)
            self.parsed[override] = parsed, is_value_override(parsed, self.loader.repository)
        return self.parsed[override]

    def full(self, overrides):
        """Hydra's own composition of the job ``overrides``."""
        self.composed_in_full += 1
        return _job_config(self.loader.load_sweep_config(master_config=self.master, sweep_overrides=list(overrides)))

    def __call__(self, overrides):
        """The :class:`JobConfig` of the job ``overrides``."""
        parsed = [self.parse(override) for override in overrides]
        values = [override for override, value in parsed if value]
        rest = tuple(override.input_line for override, value in parsed if not value)
        if rest not in self.templates:
            self.templates[rest] = template = trimmed(
                self.loader.load_sweep_config(master_config=self.master, sweep_overrides=list(rest)))
            job = self.full(overrides)
            try:
                derived = from_template(template, values)
            except OmegaConfBaseException:     # e.g. a sweep subdir naming other hydra.* keys
                self.templates[rest] = None
                return job
            if derived is not None and derived != job:
                raise TemplateMismatch(f"the job {' '.join(overrides)} composed from its template differs from "
                                       "Hydra's composition of it")
            return job
        template = self.templates[rest]
        return (template is not None and from_template(template, values)) or self.full(overrides)


def trimmed(config):
    """``config`` with its ``hydra`` node cut to the sweep's folder settings (unresolved): the rest of
    it changes no job's folder or task, and copying it per job would cost most of the time."""
    sweep = OmegaConf.to_container(config.hydra.sweep, resolve=False)
    with open_dict(config):
        config.hydra = {"sweep": {"dir": sweep["dir"], "subdir": sweep["subdir"]}}
    return config


def from_template(template, values):
    """The job of ``template`` with the value overrides applied, or None when one names a key the
    template lacks."""
    config = copy.deepcopy(template)
    for override in values:
        key = override.key_or_group
        if OmegaConf.select(config, key, default=_MISSING) is _MISSING:
            return None
        OmegaConf.update(config, key, override.value(), merge=True)
    sweep = OmegaConf.to_container(config.hydra.sweep, resolve=False)
    with open_dict(config):
        del config["hydra"]
    task = OmegaConf.to_container(config, resolve=True)
    folders = OmegaConf.create({**task, "hydra": {"sweep": sweep}})    # no interpolation left but the folders'
    return JobConfig((Path(str(folders.hydra.sweep.dir)) / str(folders.hydra.sweep.subdir)).resolve(), task)
