"""Desk and special-round facts: 修羅 lots (H4/H5), rule choice (K6), 下関 cards (K7),
bans (K8), partners and dice (K9/K10), the final's setup and withdrawals.

Lots, cards, bans, partners and dice are drawn or checked by :mod:`brackets.engine`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.engine import (
    Card,
    DeskDuties,
    DrawnLots,
    EngineError,
    Lottery,
    PastWin,
    RuleRefusal,
    draw_cards,
    draw_lots,
    format_lots_allowed,
    format_lots_declared,
    lots_owed,
    record_cards,
    record_dice,
    reveal_bans,
    roll_dice,
    validate_drawn,
)
from brackets.models import (
    Entrant,
    Group,
    Round,
    Seat,
    SelectionFact,
    SpecialFact,
    Tournament,
)
from brackets.selectors import rounds as sel
from brackets.selectors.duties import in_force_of
from brackets.services.rounds._write import RoundError, _engine_text, match_write
from brackets.services.rounds.lifecycle import round_players


def _special(tournament: Tournament, kind: str, by: Any, data: dict[str, Any], *,
             round: Round | None = None, group: Group | None = None,
             entrant: Entrant | None = None, purpose: str = "") -> SpecialFact:
    """Record a desk or special fact, superseding the one it replaces (a fact on a match is
    written inside :func:`match_write`, which moves the match's version)."""
    previous = SpecialFact.objects.filter(tournament=tournament, kind=kind, round=round,
                                          group=group, entrant=entrant).order_by("-id").first()
    fact = SpecialFact.objects.create(tournament=tournament, kind=kind, round=round,
                                      group=group, entrant=entrant, data=data, by=by,
                                      supersedes=previous, lottery_purpose=purpose)
    return fact


def shura_format_lots_allowed(*, tournament: Tournament, entrant: Entrant,
                              genre_lots: int, duties: DeskDuties | None = None) -> int:
    """H5: the most format lots this entrant may draw (0 when none, or no rounds yet), from
    their L_past and Q level in force (``duties``, read here when not given)."""
    first = Round.objects.filter(tournament=tournament, number=1).first()
    if duties is None:
        duties = in_force_of(entrant).duties
    if first is None or not duties.past_win_lots:
        return 0
    return format_lots_allowed([PastWin(duties.past_win_lots)], q_level=duties.q_level,
                               genre_lots_now=genre_lots,
                               max_matches=round_rules(first).max_matches)


@transaction.atomic
def shura_lots_draw(*, tournament: Tournament, entrant: Entrant, by: Any,
                    genres: Sequence[str] | None = None,
                    formats: Sequence[str] | None = None,
                    format_lots: int | None = None) -> SpecialFact:
    """H4/H5: draw (or record a physical draw of) an entrant's 修羅 lots before round 1.

    ``format_lots`` is the number of format lots the player declares (H5: any of 0…k).
    A physical record declares as many as it lists; an app draw without a declaration
    takes the most allowed, as a replay file's ``"app"`` always has.
    """
    if Round.objects.filter(tournament=tournament, number=1).exclude(
            status=Round.Status.CONFIGURED).exists():
        raise RoundError(_("1回戦の抽選後は修羅くじを引けません。"))
    catalog = ea.catalog_for(tournament.version_id)
    # The duties in force: the desk's typing with the registry's (derived now, or as they
    # stood at this entrant's first draw, so a correction draws the same number).
    duties = in_force_of(entrant).duties
    try:
        owed = lots_owed(duties.declaration())
    except RuleRefusal as exc:
        raise RoundError(_("くじは1人4本までです。申告を確認してください。")) from exc
    if not owed.shura:
        raise RoundError(_("{name}さんは修羅くじの対象ではありません。").format(name=entrant.name))
    if not Round.objects.filter(tournament=tournament, number=1).exists():
        raise RoundError(_("先に回戦を作成してください（最大試合数がくじの本数に関わります）。"))
    k = shura_format_lots_allowed(tournament=tournament, entrant=entrant,
                                  genre_lots=owed.genre_lots, duties=duties)
    if format_lots is None:
        format_lots = k if genres is None else len(formats or ())
    try:
        declared = format_lots_declared(format_lots, allowed=k)
    except RuleRefusal as exc:
        raise RoundError(_engine_text(exc), field="format_lots") from exc
    player = ea.player_key(entrant.id)
    purpose = "shura"
    if genres is None:
        drawn = draw_lots(Lottery(tournament.lottery_seed, purpose), catalog, player,
                          genre_lots=owed.genre_lots, format_lots=declared,
                          format_pool=_format_pool(tournament, catalog))
        method = "app"
    else:
        drawn = DrawnLots(player, tuple(genres), tuple(formats or ()))
        try:
            validate_drawn(catalog, drawn, genre_lots=owed.genre_lots, format_lots=declared,
                           format_pool=_format_pool(tournament, catalog))
        except RuleRefusal as exc:
            if declared:
                raise RoundError(_("くじの記録が正しくありません（{g}本のジャンルくじと{f}本の形式くじ）。")
                                 .format(g=owed.genre_lots, f=declared)) from exc
            raise RoundError(_("くじの記録が正しくありません（{g}本のジャンルくじ）。")
                             .format(g=owed.genre_lots)) from exc
        method = "physical"
    return _special(tournament, SpecialFact.Kind.SHURA_LOTS, by,
                    {"genres": list(drawn.genres), "formats": list(drawn.formats),
                     "reasons": list(owed.reasons), "method": method},
                    entrant=entrant, purpose=f"{purpose}/{player}")


def shura_format_lot_pool(*, tournament: Tournament) -> tuple[str, ...]:
    """H5's format-lot types for this tournament (what the desk's physical record lists)."""
    return _format_pool(tournament, ea.catalog_for(tournament.version_id))


def _format_pool(tournament: Tournament, catalog: Any) -> tuple[str, ...]:
    """H5's format-lot types as the preset defines them."""
    return tuple(ea.preset_for(tournament).format_lot_pool(catalog))


@transaction.atomic
def rule_choice_record(*, round: Round, entrant: Entrant, rule: str, by: Any) -> SpecialFact:
    """K6: one player's A/B form."""
    if rule not in {v.key for v in round_rules(round).variants}:
        raise RoundError(_("ルール「{rule}」はありません。").format(rule=rule), field="rule")
    if round.status != Round.Status.CONFIGURED:
        raise RoundError(_("抽選後はルール選択を変更できません。"))
    players, _s = round_players(round)
    if entrant.id not in players:
        raise RoundError(_("{name}さんは{round}の出場者ではありません。").format(
            name=entrant.name, round=round.name))
    return _special(round.tournament, SpecialFact.Kind.RULE_CHOICE, by, {"rule": rule},
                    round=round, entrant=entrant)


def _deck(catalog: Any, rnd: Round) -> list[Card]:
    """K7's deck as the round's preset defines it (engine ``shimonoseki_deck``)."""
    from brackets.engine import shimonoseki_deck

    return list(shimonoseki_deck(catalog, round_rules(rnd).k7_deck))


def _extra_card(rnd: Round) -> Any:
    from brackets.engine import extra_card_rule

    return extra_card_rule(round_rules(rnd).k7_extra_card)


def card_draw(*, group: Group, by: Any, cards: Sequence[tuple[str, str]] | None = None
              ) -> SpecialFact:
    """K7: record the physical card draw of a match, or draw it from the stored seed.

    With the preset setting ``k7_draw_per`` = "round" one draw serves the whole round: it
    is recorded on the round (no group), every match of the round reads it, and it can be
    changed only until the first selection of any match of the round.
    """
    with match_write(group, by=by, kind="cards", requires_input=False) as g:
        per_round = round_rules(g.round).k7_draw_per_round
        scope = {"group__round": g.round} if per_round else {"group": g}
        if SelectionFact.objects.filter(**scope).exists():
            raise RoundError(_("出題入力後はカードを変更できません。"))
        catalog = ea.catalog_for(g.round.tournament.version_id)
        deck = _deck(catalog, g.round)
        extra = _extra_card(g.round)
        base = round_rules(g.round).k7_cards_per_draw
        purpose = f"round-{g.round.number}/cards" + ("" if per_round else f"/{g.label}")
        try:
            if cards is None:
                drawn = draw_cards(deck, Lottery(g.round.tournament.lottery_seed, purpose),
                                   extra_if=extra, base=base)
            else:
                drawn = record_cards([Card(a, b) for a, b in cards], deck=deck,
                                     extra_if=extra, base=base)
        except EngineError as exc:
            raise RoundError(_("カードの記録が正しくありません：{error}").format(
                error=_engine_text(exc))) from exc
        fact = _special(g.round.tournament, SpecialFact.Kind.CARD_DRAW, by,
                        {"cards": [[c.genre, c.group] for c in drawn.cards],
                         "recorded": drawn.recorded, "per_round": per_round},
                        round=g.round, group=None if per_round else g, purpose=purpose)
        if per_round:  # every match of the round changed (tablets compare versions)
            Group.objects.filter(round=g.round).exclude(id=g.id).update(
                version=F("version") + 1)
        return fact


def ban_record(*, group: Group, entrant: Entrant, genre: str, by: Any) -> SpecialFact:
    """K8: one player's written ban (hidden until every form is in and revealed)."""
    with match_write(group, by=by, kind="ban", requires_input=False) as g:
        if sel.special_facts(g.round.tournament, SpecialFact.Kind.BAN_REVEAL, group=g):
            raise RoundError(_("公開後は変更できません。"))
        if not Seat.objects.filter(group=g, entrant=entrant,
                                   superseded_by__isnull=True).exists():
            raise RoundError(_("{name}さんはこの組の選手ではありません。").format(name=entrant.name))
        catalog = ea.catalog_for(g.round.tournament.version_id)
        if genre not in catalog.genre_names:
            raise RoundError(_("ジャンル「{genre}」はありません。").format(genre=genre),
                             field="genre")
        return _special(g.round.tournament, SpecialFact.Kind.BAN, by, {"genre": genre},
                        round=g.round, group=g, entrant=entrant)


def ban_reveal(*, group: Group, by: Any) -> SpecialFact:
    """K8: reveal the match's written bans together (the engine checks every form is in)."""
    with match_write(group, by=by, kind="ban", requires_input=False) as g:
        players = [ea.player_key(s.entrant_id) for s in Seat.objects.filter(
            group=g, superseded_by__isnull=True) if s.entrant_id]
        written = {ea.player_key(f.entrant_id): f.data["genre"] for f in
                   sel.special_facts(g.round.tournament, SpecialFact.Kind.BAN, group=g)}
        try:
            banned = reveal_bans(players, written)
        except EngineError as exc:
            raise RoundError(_engine_text(exc)) from exc
        return _special(g.round.tournament, SpecialFact.Kind.BAN_REVEAL, by,
                        {"banned": sorted(banned)}, round=g.round, group=g)


@transaction.atomic
def partner_record(*, round: Round, contender: Entrant, partner: Entrant, by: Any
                   ) -> SpecialFact:
    """K9/K10: a contender's partner (checked by the engine when the round is drawn)."""
    if round.status != Round.Status.CONFIGURED:
        raise RoundError(_("組み合わせ確定後はパートナーを変更できません。"))
    if contender.id == partner.id:
        raise RoundError(_("自分自身はパートナーにできません。"), field="partner")
    # K9: two contenders and two partners are four people: refused at once, not at the draw.
    for fact in sel.special_facts(round.tournament, SpecialFact.Kind.PARTNER, round=round):
        if fact.entrant_id != contender.id and fact.data.get("partner") == partner.id:
            other = Entrant.objects.filter(id=fact.entrant_id).values_list("name", flat=True).first()
            raise RoundError(_("{partner} さんは既に {other} さんのパートナーです。別の人を選んでください。")
                             .format(partner=partner.name, other=other or "—"), field="partner")
    return _special(round.tournament, SpecialFact.Kind.PARTNER, by,
                    {"partner": partner.id}, round=round, entrant=contender)


@transaction.atomic
def dice_record(*, round: Round, players: tuple[int, int], by: Any,
                rolls: Sequence[tuple[int, int]] | None = None) -> SpecialFact:
    """K10: the dice duel, physical rolls or drawn from the stored seed."""
    keys = (ea.player_key(players[0]), ea.player_key(players[1]))
    purpose = f"round-{round.number}/dice"
    try:
        duel = (roll_dice(keys, Lottery(round.tournament.lottery_seed, purpose)) if rolls is None
                else record_dice(keys, rolls))
    except EngineError as exc:
        raise RoundError(_("ダイスの記録が正しくありません：{error}").format(
            error=_engine_text(exc))) from exc
    return _special(round.tournament, SpecialFact.Kind.DICE, by,
                    {"players": list(keys), "rolls": [list(r) for r in duel.rolls],
                     "winner": duel.winner}, round=round, purpose=purpose)


@transaction.atomic
def final_setup_record(*, round: Round, by: Any, winner_decides: str, first: int,
                       question_order: str) -> SpecialFact:
    """K10: the dice winner's decision and the other's, checked by the engine."""
    from brackets.engine import DiceDuel, final_setup

    dice = sel.special_facts(round.tournament, SpecialFact.Kind.DICE, round=round)
    if not dice:
        raise RoundError(_("先にダイスを記録してください。"))
    d = dice[0].data
    duel = DiceDuel(tuple(d["players"]), tuple(tuple(r) for r in d["rolls"]))  # type: ignore[arg-type]
    try:
        setup = final_setup(duel, winner_decides=winner_decides,  # type: ignore[arg-type]
                            first=ea.player_key(first),
                            question_order=question_order)  # type: ignore[arg-type]
    except EngineError as exc:
        raise RoundError(_("設定が正しくありません：{error}").format(
            error=_engine_text(exc))) from exc
    return _special(round.tournament, SpecialFact.Kind.FINAL_SETUP, by,
                    {"first": setup.first, "second": setup.second,
                     "question_order": setup.question_order,
                     "seat_order_by": setup.seat_order_by,
                     "question_order_by": setup.question_order_by}, round=round)


@transaction.atomic
def withdrawal_record(*, tournament: Tournament, entrant: Entrant, by: Any, reason: str,
                      revoke: bool = False) -> SpecialFact:
    """A player leaves: they stop advancing and wildcards refill their place (K4)."""
    return _special(tournament, SpecialFact.Kind.WITHDRAWAL, by,
                    {"reason": reason, "revoked": revoke}, entrant=entrant)
