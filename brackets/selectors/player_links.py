"""Reads for the review of an imported tournament's players (#14 item 5): each entrant's
link to the registry, and for an uncertain one the candidates with what they share."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from brackets.adapters import players as ad
from brackets.models import Player, PlayerCard, PlayerLink, PlayerLinkDecision, Tournament

#: The engine's reasons for doubt (brackets/engine/linking.py), as the page words them.
REASONS = {
    "same_card_other_name": _("カードネームが同じで、名前もよみがなも違います"),
    "same_name_no_card": _("名前かよみがなが同じで、共通のカードがありません"),
    "several_certain": _("カードネームと名前が一致する選手が複数います"),
    "already_in_event": _("この大会の別の参加者と結び付いています"),
}


@dataclass
class CandidateRow:
    player: Player
    cards: list[PlayerCard]
    reason: str
    shared: list[str]


@dataclass
class LinkRow:
    link: PlayerLink
    cards: list[PlayerCard]
    candidates: list[CandidateRow] = field(default_factory=list)
    decision: PlayerLinkDecision | None = None


def player_links_review(*, tournament: Tournament) -> list[LinkRow]:
    """The tournament's links, uncertain ones first (undecided before decided)."""
    links = list(PlayerLink.objects.filter(tournament=tournament)
                 .select_related("entrant", "player", "by").order_by("id"))
    decisions = {d.link_id: d for d in PlayerLinkDecision.objects.filter(link__in=links)
                 .select_related("same_as", "by")}
    wanted = {c["player"] for link in links for c in link.candidates}
    players = Player.objects.in_bulk(list(wanted))
    rows = []
    for link in links:
        row = LinkRow(link, ad.current_cards(ad.family_ids(link.player)),
                      decision=decisions.get(link.pk))
        for c in link.candidates:
            player = players.get(c["player"])
            if player is not None:
                row.candidates.append(CandidateRow(
                    player, ad.current_cards(ad.family_ids(player)),
                    str(REASONS.get(c["reason"], c["reason"])), list(c.get("cards") or [])))
        rows.append(row)
    order = {"uncertain": 0, "new": 1, "certain": 2}
    rows.sort(key=lambda r: (order.get(r.link.match, 3), r.decision is not None, r.link.pk))
    return rows
