"""What every rounds page shares: the staff roles, the round and group lookups, and the
round's rules in the organisers' words."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from brackets.adapters.rounds import round_rules
from brackets.engine import RoundRestrictions
from brackets.labels import (
    COUNTING_LABELS,
    MODE_LABELS,
    label,
)
from brackets.models import Group, Role, Round, Tournament

STAFF = (Role.ORGANISER, Role.BRACKET)


def seat_rule_label(conf: RoundRestrictions, rules: Any) -> str:
    """The restriction that actually applies to a seat, in the organisers' words: the
    player's mode only where the round keeps a history (K1); K6 rule B and the
    third-place match have none (K9), the final restarts it per pair (K10)."""
    sep = _("・")  # a list separator: " · " in English
    mode = (f"{label(MODE_LABELS, str(rules.mode))}{sep}"
            f"{label(COUNTING_LABELS, str(rules.counting), '')}")
    pair = _("2セットでジャンル・形式群が重複不可") if conf.pair_sets else ""
    if conf.read_window is None:
        return pair or _("制限なし（履歴に残らない）")
    if conf.pair_history:
        text = _("決勝内でペアごとに基本ルール")
        return f"{text}{sep}{pair}" if pair else text
    return mode


def round_summary(rnd: Round) -> str:
    """What decides the round, for its page header: groups advance n each, but a pair
    round or a ranked final has no 「各組の勝ち抜け」 (K6 rules each have their own)."""
    rules = round_rules(rnd)
    spec = rules.spec
    if spec.is_series:
        return _("3本勝負：先に{n}勝した方が優勝（対戦者の順位で勝敗、パートナーは数えない）").format(
            n=rules.wins_needed)
    if spec.is_partner_match:
        return _("対戦者2人のうち上位が3位（パートナーの順位は数えない）")
    if spec.is_ranked_final:
        return _("順位決定：この試合の順位が最終順位")
    if spec.is_rule_selection and spec.variants:
        return _("・").join(_("ルール{r}：各組の勝ち抜け {n}").format(r=v.key, n=v.advance_per_group)
                        for v in spec.variants)
    text = _("各組の勝ち抜け") + f" {rnd.advance_per_group}"
    if rnd.target_size:
        text += " · " + _("次の回戦") + f" {rnd.target_size}" + _("名")
    return text


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def _group(tournament: Tournament, group_id: int) -> Group:
    group = (Group.objects.select_related("round")
             .filter(id=group_id, round__tournament_id=tournament.pk).first())
    if group is None:
        raise Http404(_("この組はありません。"))
    group.round.tournament = tournament  # loaded by the permission check: not again
    return group
