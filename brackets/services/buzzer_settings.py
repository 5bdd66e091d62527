"""Writes for a round's settings after it was created: the edit, refused or recorded.

The engine says which settings a started round may still take
(:func:`~brackets.engine.buzzer.settings_change_refusal`: only ``LIVE_EDITABLE`` once a
tap is recorded); this module also replays the recorded taps under the new settings, so an
edit that the engine allows but that would still change a recorded result (a protest
recorded inside the old protest window, outside the new one) is refused too. An accepted
edit replaces ``BuzzerRound.config`` and keeps the replaced value, who and when, in a
:class:`~brackets.models.BuzzerSettingsChange`.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from brackets.engine import EngineError
from brackets.engine.buzzer import (
    RoundConfig,
    changed_settings,
    choices,
    event_from_dict,
    replay,
    setting_fields,
    settings_change_refusal,
)
from brackets.messages import engine_message, error_text
from brackets.models import BuzzerRound, BuzzerSettingsChange
from brackets.selectors.buzzer import round_log, round_specs
from brackets.services.buzzer import BuzzerRefused


def setting_labels() -> dict[str, str]:
    """Each setting key as the settings form labels it (translated), for messages and the
    history: a piece's parameter says which piece it belongs to (「ポイント（ポイントが n 以上
    のとき）」), as the same number may belong to several pieces."""
    fields_ = setting_fields()
    registry = {sf.key: sf.param.choices for sf in fields_ if sf.section == sf.key}
    labels: dict[str, str] = {}
    for sf in fields_:
        label = _(sf.param.label)
        if sf.slug:
            piece = dict(choices(registry[sf.section])).get(sf.slug, sf.slug)
            label = _("%(label)s（%(piece)sのとき）") % {"label": label, "piece": _(piece)}
        labels[sf.key] = label
    return labels


def _results(state: Any) -> tuple[Any, ...]:
    return (state.players, state.winners, state.outs, state.continuing, state.phase,
            state.decisions)


@transaction.atomic
def buzzer_settings_change(
    *, round: BuzzerRound, config: RoundConfig, by: Any = None
) -> BuzzerSettingsChange:
    """Replace the settings of ``round`` with ``config``, keeping the previous ones.

    Refused (:class:`BuzzerRefused`, nothing stored) when nothing changed, when the round
    has started and a changed setting would change recorded results
    (``settings_round_started``), or when the recorded taps no longer replay to the same
    result under ``config``. The round row is locked, as a tap locks it, so no tap slips
    in between the check and the write.
    """
    locked = BuzzerRound.objects.select_for_update().get(pk=round.pk)
    old, specs = round_specs(locked)
    changed = changed_settings(old, config)
    if not changed:
        raise BuzzerRefused("unchanged", _("設定は変わっていません。"))
    records = round_log(locked)
    refusal = settings_change_refusal(old, config, events=len(records))
    if refusal is not None:
        raise BuzzerRefused(refusal.code,
                            engine_message(refusal.code, refusal.params, setting_labels()))
    events = [event_from_dict(r.data) for r in records]
    try:
        after = replay(config, specs, events)
    except EngineError as error:
        raise BuzzerRefused(error.code, error_text(error)) from error
    if records and _results(after) != _results(replay(old, specs, events)):
        raise BuzzerRefused(
            "settings_change_results",
            _("この設定では、記録済みの入力の結果が変わります（審議の期限を狭めると、記録済みの審議が"
              "期限外になるなど）。設定は変更していません。"))
    change = BuzzerSettingsChange.objects.create(
        round=locked,
        previous=locked.config,
        config=config.to_dict(),
        changed=list(changed),
        events=len(records),
        by=by if getattr(by, "is_authenticated", False) else None,
    )
    BuzzerRound.objects.filter(pk=locked.pk).update(config=change.config)
    round.config = change.config
    return change
