"""A sweep's job configurations, composed by Hydra once per distinct choice of config groups.

Hydra's basic sweeper composes every job's configuration from scratch to validate it, about 0.1 s a
job: pcmac's 770-job learning curve spent over a minute there before its first job started.  The jobs
of a sweep mostly differ in plain values only (``split=3 n_labeled=29``), so here the jobs are grouped
by their other overrides (config-group choices such as ``method=da``, additions ``+key=``, deletions,
anything under ``hydra``) and by the keys their values set: each group's configuration is composed by
Hydra once, as a template, and each job's value overrides are applied to it, as Hydra itself applies
value overrides after composing the defaults (``OmegaConf.update(..., merge=True)``).

What a job costs after its template (pcmac's 1,210-job learning curve: 11 templates): one update per
value and one resolution of the configuration.  The values are applied to the template in place (every
job of a group sets the same keys, so each job's values replace the previous job's); a dict or list
value, which OmegaConf merges into what is there, goes to a fresh copy of the template instead.  The
folder's ``${job_key:}`` stands as :data:`KEY_TOKEN` while the configuration is resolved, then becomes
the key of the resolved task (:func:`ssl_repro.harness.jobkey.job_key`, what the resolver computes),
so the task is resolved once, not a second time inside the resolver.

Nothing is taken on trust: the first job of every template is also composed by Hydra in full, and its
configuration and folder must equal the template's (else :class:`TemplateMismatch`); a value override
naming a key the template lacks (which Hydra refuses without ``+``) is composed by Hydra in full, so
its error is Hydra's own; a template whose task reads a ``hydra`` setting (which the template cuts down)
has every job composed in full.  The launcher still composes each job in full when it runs it.
"""
import copy
from dataclasses import dataclass
from pathlib import Path

from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.core.override_parser.types import OverrideType, ValueType
from omegaconf import OmegaConf, open_dict
from omegaconf.errors import OmegaConfBaseException

from ssl_repro.harness.jobkey import RESOLVER, job_key

_MISSING = object()
#: The job-key resolver as the folder settings call it, and what stands for it while a task is resolved.
JOB_KEY, KEY_TOKEN = "${%s:}" % RESOLVER, "@job-key@"


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
    can take by :func:`omegaconf.OmegaConf.update`."""
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
        group = rest, tuple(override.key_or_group for override in values)
        if group not in self.templates:
            self.templates[group] = template = Template(
                self.loader.load_sweep_config(master_config=self.master, sweep_overrides=list(rest)))
            job = self.full(overrides)
            try:
                derived = template.job(values)
            except OmegaConfBaseException:     # e.g. a sweep subdir naming other hydra.* keys
                derived = None
                template.usable = False
            if not template.usable:
                self.templates[group] = None
            if derived is not None and derived != job:
                raise TemplateMismatch(f"the job {' '.join(overrides)} composed from its template differs from "
                                       "Hydra's composition of it")
            return job
        template = self.templates[group]
        return (template is not None and template.job(values)) or self.full(overrides)


class Template:
    """A group's configuration composed by Hydra (module doc), its ``hydra`` node cut to the sweep's folder
    settings (unresolved: the rest of it changes no job's folder or task, and copying it per job would
    cost most of the time), ``${job_key:}`` there standing as :data:`KEY_TOKEN`."""

    def __init__(self, config):
        sweep = OmegaConf.to_container(config.hydra.sweep, resolve=False)
        folders = {key: sweep[key].replace(JOB_KEY, KEY_TOKEN) if isinstance(sweep[key], str) else sweep[key]
                   for key in ("dir", "subdir")}
        with open_dict(config):
            config.hydra = {"sweep": folders}
        task = OmegaConf.to_container(config, resolve=False)
        del task["hydra"]
        self.usable = not _reads_hydra(task)
        self.pristine, self.working = config, copy.deepcopy(config)
        self.present = {}           # value key -> whether the template has it

    def job(self, values):
        """The :class:`JobConfig` of the template with the value overrides ``values`` applied, or None when
        one names a key the template lacks or the template is not :attr:`usable`."""
        if not self.usable:
            return None
        in_place = not any(isinstance(override.value(), (dict, list)) for override in values)
        config = self.working if in_place else copy.deepcopy(self.pristine)
        for override in values:
            key = override.key_or_group
            if key not in self.present:
                self.present[key] = OmegaConf.select(config, key, default=_MISSING) is not _MISSING
            if not self.present[key]:
                return None
            OmegaConf.update(config, key, override.value(), merge=True)
        task = OmegaConf.to_container(config, resolve=True)
        sweep = task.pop("hydra")["sweep"]
        folder = Path(str(sweep["dir"])) / str(sweep["subdir"])
        if KEY_TOKEN in str(folder):
            folder = Path(str(folder).replace(KEY_TOKEN, job_key(task)))
        return JobConfig(folder.resolve(), task)


def _reads_hydra(node):
    """Whether an unresolved configuration ``node`` holds an interpolation naming ``hydra``."""
    if isinstance(node, dict):
        return any(_reads_hydra(value) for value in node.values())
    if isinstance(node, list):
        return any(_reads_hydra(value) for value in node)
    return isinstance(node, str) and "${" in node and "hydra" in node
