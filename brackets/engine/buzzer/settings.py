"""A round's settings as flat named values, and back: what a settings form edits.

:func:`setting_fields` lists every setting of a :class:`RoundConfig` (its own fields, each
rule piece's slug and that piece's parameters, the written-quiz fields) with the
:class:`~brackets.engine.buzzer.params.Param` describing it. :func:`config_values` flattens
a config into ``{key: value}``; :func:`config_from_values` builds the config back and
refuses an out-of-range value with ``bad_setting`` (``key``, ``low``, ``high``).

Keys: a RoundConfig field (``"slots"``), a piece slot (``"win"``: slug or ``None``), a
piece parameter (``"win:correct-at-least:n"``), a written field (``"written:lives"``).
A parameter belongs to one slug, so switching the scoring never carries a stale number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from brackets.engine.buzzer.config import Checkpoint, RoundConfig, Rule, WrittenRules
from brackets.engine.buzzer.params import (
    CONDITION_PARAMS,
    LABELS,
    PIECE_SLOTS,
    REST_PARAMS,
    ROUND_PARAMS,
    SCORING_PARAMS,
    WRITTEN_PARAMS,
    Param,
)
from brackets.engine.errors import RuleRefusal

_PIECE_PARAMS: dict[str, dict[str, tuple[Param, ...]]] = {
    "scoring": SCORING_PARAMS,
    "conditions": CONDITION_PARAMS,
    "rest_rules": REST_PARAMS,
}


@dataclass(frozen=True)
class SettingField:
    """One editable setting: its flat ``key``, what it is, and where it belongs.

    ``section`` is ``"round"``, a piece slot (``"win"`` …) or ``"written"``; ``slug`` is
    the piece a parameter belongs to (blank otherwise). A piece slot itself is a
    ``"choice"`` Param whose ``choices`` is the registry name (``"conditions"`` …).
    """

    key: str
    param: Param
    section: str
    slug: str = ""


def setting_fields() -> tuple[SettingField, ...]:
    """Every setting of a round in the order a form shows them."""
    out: list[SettingField] = [SettingField(p.name, p, "round") for p in ROUND_PARAMS]
    for slot, label, registry, optional, default in PIECE_SLOTS:
        out.append(
            SettingField(
                slot,
                Param(slot, label, default, kind="choice", choices=registry, optional=optional),
                slot,
            )
        )
        for slug, params in _PIECE_PARAMS[registry].items():
            out += [SettingField(f"{slot}:{slug}:{p.name}", p, slot, slug) for p in params]
    out += [SettingField(f"written:{p.name}", p, "written") for p in WRITTEN_PARAMS]
    return tuple(out)


def choices(registry: str) -> list[tuple[str, str]]:
    """``(slug, label)`` pairs of a registry as staff read them."""
    return list(LABELS[registry].items())


def config_values(config: RoundConfig) -> dict[str, Any]:
    """The settings of ``config`` by key; parameters of unused pieces get their defaults."""
    values: dict[str, Any] = {}
    for sf in setting_fields():
        if sf.section == "round":
            values[sf.key] = getattr(config, sf.key)
        elif sf.section == "written":
            written = config.written or WrittenRules()
            values[sf.key] = getattr(written, sf.param.name)
        elif sf.slug == "":
            piece = getattr(config, sf.key)
            values[sf.key] = None if piece is None else piece.slug
        else:
            piece = getattr(config, sf.section)
            used = piece is not None and piece.slug == sf.slug
            values[sf.key] = piece.params.get(sf.param.name, sf.param.default) if used else (
                sf.param.default
            )
    return values


def _refuse(sf: SettingField, value: Any) -> RuleRefusal:
    return RuleRefusal(
        "bad_setting",
        f"setting {sf.key!r}: {value!r} is out of range",
        key=sf.key,
        low=sf.param.low,
        high=sf.param.high,
    )


def _checked(sf: SettingField, value: Any) -> Any:
    p = sf.param
    if p.kind == "choice":
        if value is None and p.optional:
            return None
        if value not in LABELS[p.choices]:
            raise _refuse(sf, value)
        return value
    if p.kind == "keys":
        items = list(value or ())
        if any(v not in LABELS[p.choices] for v in items) or len(set(items)) != len(items):
            raise _refuse(sf, value)
        return tuple(items)
    if p.kind == "checkpoints":
        allowed = set(LABELS[p.choices])
        out: list[Checkpoint] = []
        for cp in value or ():
            if not (isinstance(cp, Checkpoint) and 1 <= cp.question and cp.keys
                    and all(k in allowed for k in cp.keys)):
                raise _refuse(sf, value)
            out.append(cp)
        return tuple(out)
    if not p.check(value):
        raise _refuse(sf, value)
    return tuple(value) if p.kind == "ints" else value


def config_from_values(
    values: Mapping[str, Any], base: RoundConfig | None = None
) -> RoundConfig:
    """The RoundConfig the settings describe; a missing key takes its default.

    Fields no setting describes (:func:`unlisted_settings`) are kept from ``base``, so a
    form never drops a setting it does not show.

    Raises :class:`RuleRefusal` ``bad_setting`` (with ``key``, ``low``, ``high``) for a
    value out of its range or not one of its choices.
    """
    kwargs: dict[str, Any] = {}
    written: dict[str, Any] = {}
    params: dict[str, dict[str, Any]] = {}
    fields_ = setting_fields()
    for sf in fields_:
        value = _checked(sf, values.get(sf.key, sf.param.default))
        if sf.section == "round":
            kwargs[sf.key] = value
        elif sf.section == "written":
            written[sf.param.name] = value
        elif sf.slug == "":
            kwargs[sf.key] = value
        elif kwargs.get(sf.section, _slot_default(sf.section)) == sf.slug:
            params.setdefault(sf.section, {})[sf.param.name] = value
    for slot, _label, _registry, _optional, _default in PIECE_SLOTS:
        slug = kwargs[slot]
        kwargs[slot] = None if slug is None else Rule(slug, params.get(slot, {}))
    kwargs["written"] = WrittenRules(**written) if kwargs["format"] == "written" else None
    return replace(base, **kwargs) if base is not None else RoundConfig(**kwargs)


def _slot_default(slot: str) -> str | None:
    return next(default for s, _l, _r, _o, default in PIECE_SLOTS if s == slot)


def default_config() -> RoundConfig:
    """The round every setting's default describes: a plain 5○2× (the blank form)."""
    return config_from_values({})


def unlisted_settings() -> set[str]:
    """RoundConfig fields no setting describes (kept from the base config by forms)."""
    listed = {sf.key for sf in setting_fields() if ":" not in sf.key} | {"written"}
    return {f.name for f in fields(RoundConfig)} - listed


#: Settings that govern only what happens next or what the screens show, never the effect
#: of a recorded answer, so they stay editable once a round has started: the protest window
#: (how many questions later a judgement may still be protested) and ``show_answer`` (the
#: stage shows the judged answer). Every other setting (scoring, win and loss lines,
#: limits, judging order …) would change what the recorded taps already decided.
LIVE_EDITABLE: frozenset[str] = frozenset({"protest_window", "show_answer"})


def changed_settings(old: RoundConfig, new: RoundConfig) -> tuple[str, ...]:
    """Keys of the settings whose value differs between ``old`` and ``new``, form order.

    A parameter of a piece counts only while that piece is chosen in either config (an
    unused piece's parameters are its defaults on both sides).
    """
    before, after = config_values(old), config_values(new)
    return tuple(sf.key for sf in setting_fields() if before[sf.key] != after[sf.key])


def settings_change_refusal(
    old: RoundConfig, new: RoundConfig, *, events: int
) -> RuleRefusal | None:
    """Why ``old`` may not become ``new`` on a round with ``events`` recorded, or None.

    Before the first event every setting may change. After it only :data:`LIVE_EDITABLE`
    may: ``settings_round_started`` names the others that changed (``settings``) and the
    ones still editable (``editable``). The caller also replays the recorded events under
    ``new`` (a recorded protest must still fall inside a narrowed window).
    """
    if events == 0:
        return None
    locked = [key for key in changed_settings(old, new) if key not in LIVE_EDITABLE]
    if not locked:
        return None
    return RuleRefusal(
        "settings_round_started",
        f"the round has {events} events; {', '.join(locked)} would change recorded results",
        settings=locked,
        editable=sorted(LIVE_EDITABLE),
        events=events,
    )
