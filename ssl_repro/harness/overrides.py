"""A ``run.py`` command line's overrides checked before Hydra composes: what Hydra itself would refuse in
several lines, or with a traceback, refused here in one line naming the override and the fix.

* An override Hydra's grammar cannot parse (``split=[0,1``, ``method.lam=1)``, ``n_labeled=${foo``,
  ``-m 'split=range(0,'``), or a bare word (``dataset``): Hydra prints 3-4 lines, some never naming it.
* A deleted setting every job reads (``~method``, ``~split``): Hydra fails resolving the run folder's name
  (``hydra.run.dir`` reads ``method.variant``) with an ``AssertionError`` in its own error formatting.
* An interpolation that cannot resolve on its own (``n_labeled=${oc.env:NO_SUCH_VAR}``, an unknown
  resolver, a setting no job has): the same traceback.

Decision: an interpolation naming a job's setting (``${dataset.n_labeled}``) is left to Hydra, which
resolves it in the composed configuration; one naming no top-level setting is refused here.
"""
from hydra._internal.utils import get_args_parser
from hydra.core.override_parser.overrides_parser import OverridesParser
from omegaconf import OmegaConf
from omegaconf.errors import InterpolationKeyError, OmegaConfBaseException

GRAMMAR = "https://hydra.cc/docs/advanced/override_grammar/basic/"


def overrides_of(argv):
    """The overrides of a ``run.py`` command line (its words that are not Hydra's own flags or their values)."""
    parsed, rest = get_args_parser().parse_known_args(list(argv))
    return list(parsed.overrides) + [a for a in rest if not a.startswith("-")]


def check_overrides(argv, settings):
    """Refuse (ValueError, one line) an override of ``argv`` Hydra would refuse in several lines or with a
    traceback (module docstring); ``settings``: the job's top-level settings, which none may delete."""
    parser = OverridesParser.create()
    for text in overrides_of(argv):
        try:
            override = parser.parse_override(text)
        except Exception as error:          # Hydra's grammar errors (HydraException and its subclasses)
            reason = " ".join(str(error).split())
            if "=" not in text:
                raise ValueError(f"{text!r} is not an override (Hydra takes KEY=VALUE): write {text.lstrip('~+')}=VALUE, "
                                 f"e.g. dataset=pcmac") from None
            raise ValueError(f"the override {text!r} is not in Hydra's syntax ({reason}): write KEY=VALUE, a list as "
                             f"KEY=[a,b], a sweep as -m KEY=a,b or -m 'KEY=range(0,3)', and quote it in the shell "
                             f"({GRAMMAR})") from None
        key = override.key_or_group
        if override.is_delete() and key in settings:
            raise ValueError(f"{text} deletes {key}, which every job reads (its folder is named after it): set it "
                             f"instead, e.g. {key}=VALUE, or leave it out for the default")
        value = override.value() if not override.is_delete() else None
        if isinstance(value, str) and "${" in value:
            check_interpolation(text, value, settings)


def check_interpolation(text, value, settings):
    """Refuse the override ``text`` when its interpolation ``value`` cannot resolve: an unset environment
    variable, an unknown resolver, or a setting outside the job's ``settings``."""
    try:
        OmegaConf.create({"value": value})["value"]
    except InterpolationKeyError as error:
        named = str(error).split("'")[1] if "'" in str(error) else ""
        if named.split(".")[0] in settings or named.startswith("hydra"):
            return          # a job's setting: resolved in the composed configuration
        raise ValueError(f"{text}: the interpolation names {named!r}, which is no setting of a job: name one of "
                         f"{', '.join(settings)}, or give the value itself") from None
    except OmegaConfBaseException as error:
        cause = error.__cause__ or error
        missing = str(cause).split("'")[1] if "Environment variable" in str(cause) else None
        if missing:
            raise ValueError(f"{text}: the environment variable {missing} is not set: set it, or give a default "
                             f"as ${{oc.env:{missing},VALUE}}") from None
        reason = str(cause).strip().splitlines()[0]
        raise ValueError(f"{text}: its interpolation cannot be resolved ({reason}): give the value itself") from None
