"""Reads for printed documents: plain rows, a fixed number of queries per document.

Documents never touch the ORM themselves: they receive these dataclasses, so a document is a
pure layout function of its data (and the benchmark can feed it synthetic rows). Derived
values (restriction mode, 修羅 lots owed) come from the rule engine, never from a table here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from brackets.engine import RoundSpec, seeds_play_round_1, seeds_round
from brackets.labels import COUNTING_LABELS, MODE_LABELS
from brackets.models import Entrant, Genre, Rank, Tournament
from brackets.selectors.checkin_codes import checkin_url
from brackets.selectors.duties import in_force_for

#: 修羅 lot reasons (entry sheets, 修羅くじ記録 translate them when they print).
LOT_REASON_TEXT = {
    "national_title": gettext_noop("全国大会タイトル"),
    "shiga_winner": gettext_noop("滋賀大会優勝"),
    "seed_or_invitation": gettext_noop("シード・招待権"),
    "volunteer": gettext_noop("修羅の道"),
    "extra": gettext_noop("追加くじ（自己申告）"),
}
#: The same reasons for web pages (the 修羅 desk): translated into the reader's language.
LOT_REASONS = {code: gettext_lazy(text) for code, text in LOT_REASON_TEXT.items()}
#: Names tried, in order, for a public page of one player (the public area may add one).
PLAYER_URL_NAMES = ("public_entrant", "public_player", "public_entrant_detail")
_URL_SENTINEL = 987654321


@dataclass(frozen=True)
class EntrantDoc:
    """One entrant as the desk documents print them."""

    id: int
    number: int
    name: str
    reading: str
    card_name: str
    home_store: str
    q_level: int
    rank: str
    seed: int | None
    mode: str
    lots_owed: int
    lot_reasons: tuple[str, ...]
    lots_drawn: tuple[str, ...] | None
    lot_error: str
    round1_group: str
    round1_seat: int | None
    public_url: str
    fee_paid: bool = False
    #: The QR code's address: the desk checks the entrant in from it, a phone opens the
    #: player page (brackets/selectors/checkin_codes.py).
    checkin_url: str = ""
    checked_in: bool = False
    #: Why there is no round-1 seat (a seed who starts later, K5).
    round1_note: str = ""

    @property
    def lots_text(self) -> str:
        """What the entry sheet prints in the 修羅くじ row."""
        if self.lot_error:
            return self.lot_error
        if not self.lots_owed:
            return gettext("なし")
        reasons = "・".join(dict.fromkeys(self.lot_reasons))
        text = gettext("{count}本（{reasons}）").format(count=self.lots_owed, reasons=reasons)
        if self.lots_drawn:
            text += "　" + gettext("引いたジャンル：{genres}").format(
                genres="、".join(self.lots_drawn))
        elif self.lots_drawn is None:
            text += "　" + gettext("未抽選")
        return text


@dataclass(frozen=True)
class EntrantDocs:
    tournament_name: str
    restriction: str
    entrants: list[EntrantDoc] = field(default_factory=list)


def rank_name(ranks: Iterable[tuple[str, int, int]], q_level: int) -> str:
    for name, q_min, q_max in ranks:
        if q_min <= q_level <= q_max:
            return name
    return ""


def player_public_url(tournament: Tournament, entrant_id: int, base_url: str) -> str:
    """The address of a player's public page (the QR code on the entry sheet).

    The public area names its per-player page one of :data:`PLAYER_URL_NAMES`; until one
    exists, the tournament's public page with an anchor for the player.
    """
    path = None
    for name in PLAYER_URL_NAMES:
        for kwargs in ({"slug": tournament.slug, "entrant_id": entrant_id},
                       {"slug": tournament.slug, "pk": entrant_id}):
            try:
                path = reverse(name, kwargs=kwargs)
                break
            except NoReverseMatch:
                continue
        if path:
            break
    if path is None:
        path = reverse("public_tournament", kwargs={"slug": tournament.slug}) + (
            f"#entrant-{entrant_id}")
    return base_url.rstrip("/") + path


def _planned(tournament: Tournament) -> tuple[RoundSpec, ...] | None:
    """The preset's rounds before any entrant is counted (None: the preset is unknown)."""
    try:
        from brackets.engine_adapter import preset_for

        return tuple(preset_for(tournament).rounds_for(0, 0))
    except Exception:  # noqa: BLE001 - an unknown preset still prints entry sheets
        return None


def first_round_restriction(tournament: Tournament) -> str:
    """The restriction kind of the tournament's first round: ``preset`` (the preset
    decides), or ``rank`` (H2's modes by rank) when the preset is unknown."""
    return "preset" if _planned(tournament) is not None else "rank"


def lots_apply(tournament: Tournament) -> bool:
    """Whether the preset has 修羅 lots at all (seed 002 does, 九州杯IX does not)."""
    planned = _planned(tournament)
    return True if planned is None else any(sp.restrictions.lots for sp in planned)


def player_rules_of(tournament: Tournament, restriction: str, entrant: Entrant,
                    lots: dict[str, Any] | None, duties: Any = None) -> Any:
    """The engine's standing rules for one entrant (the round adapter decides: K1 fixed,
    or H2–H5 by rank with 修羅 lots) from their ``duties`` in force; a desk error in the
    declarations falls back to the rank alone so a sheet still prints."""
    from brackets import engine_adapter as ea
    from brackets.engine import EngineBug, EngineError

    rules_input = ea.rules_input_from_entrant(entrant, lots, duties)
    try:
        try:
            return ea.player_rules(restriction, rules_input, tournament)
        except TypeError:  # an adapter without the preset argument
            return ea.player_rules(restriction, rules_input)
    except EngineBug:
        raise
    except EngineError:
        from brackets.engine import player_rules_for

        return player_rules_for(entrant.q_level)


def mode_label(rules: Any, *, shura: bool, opt_up: bool) -> str:
    """How a sheet names a player's restriction: 高火力ボンバーマン, 基本ルール（…）, ＋修羅.

    In the active language (a sheet prints in the language of whoever prints it).
    """
    from brackets.engine import BASIC_RULE

    mode = gettext(MODE_LABELS[str(rules.mode)])
    if str(rules.mode) != "free":
        # Translators: a restriction mode after its counting, 高火力 + ボンバーマン.
        mode = gettext("{counting}{mode}").format(
            counting=gettext(COUNTING_LABELS[str(rules.counting)]), mode=mode)
    if rules == BASIC_RULE and not shura:
        return gettext("基本ルール（{mode}）").format(mode=mode)
    if shura:
        return gettext("{mode}（修羅）").format(mode=mode)
    if opt_up:
        return gettext("{mode}（プチ修羅の道）").format(mode=mode)
    return mode


def _restriction(tournament: Tournament, kind: str, entrant: Entrant,
                 lots: dict[str, Any] | None, with_lots: bool, duties: Any
                 ) -> tuple[str, int, tuple[str, ...], str]:
    """(mode text, lots owed, lot reasons, error) for one entrant, from the engine, with
    their ``duties`` in force (``brackets.selectors.duties``)."""
    from brackets.engine import RuleRefusal, lots_owed

    count, reasons, error = 0, (), ""
    if with_lots:
        try:
            owed = lots_owed(duties.declaration())
            count, reasons = owed.genre_lots, owed.reasons
        except RuleRefusal:
            error = gettext("くじ数が上限を超えています（受付で確認）")
    rules = player_rules_of(tournament, kind, entrant, lots, duties)
    mode = mode_label(rules, shura=bool(count or error), opt_up=bool(entrant.opt_up))
    return mode, count, tuple(gettext(LOT_REASON_TEXT[r]) if r in LOT_REASON_TEXT else r
                                 for r in reasons), error


def _drawn_lots(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """Newest 修羅 lot record per entrant (a correction supersedes), when lots are drawn."""
    from brackets.models import SpecialFact

    drawn: dict[int, dict[str, Any]] = {}
    rows = SpecialFact.objects.filter(tournament=tournament, kind="shura_lots",
                                      entrant__isnull=False).order_by("id")
    for entrant_id, data in rows.values_list("entrant_id", "data"):
        drawn[entrant_id] = data or {}
    return drawn


def _first_round_seats(tournament: Tournament) -> dict[int, tuple[str, int]]:
    """entrant id → (group label, サテ) in round 1, newest seat row per group and number."""
    from brackets.models import Seat

    current: dict[tuple[int, int], tuple[int | None, str]] = {}
    rows = (Seat.objects.filter(group__round__tournament=tournament, group__round__number=1)
            .order_by("id").values_list("group_id", "number", "entrant_id", "group__label"))
    for group_id, number, entrant_id, label in rows:
        current[(group_id, number)] = (entrant_id, label)
    seats: dict[int, tuple[str, int]] = {}
    for (_group_id, number), (entrant_id, label) in current.items():
        if entrant_id is not None:
            seats[entrant_id] = (label, number)
    return seats


def entrant_documents(tournament: Tournament, *, base_url: str = "") -> EntrantDocs:
    """Every entrant with what name tags and entry sheets print, in entry order."""
    ranks = list(Rank.objects.filter(version_id=tournament.version_id)
                 .order_by("order", "id").values_list("name", "q_min", "q_max"))
    kind = first_round_restriction(tournament)
    with_lots = lots_apply(tournament)
    planned = _planned(tournament)
    seeds_from = None if planned is None else seeds_round(planned)
    drawn = _drawn_lots(tournament)
    seats = _first_round_seats(tournament)
    genre_names = set(Genre.objects.filter(version_id=tournament.version_id)
                      .values_list("name", flat=True))
    rows: list[EntrantDoc] = []
    base = base_url or "http://localhost:8000"
    # One reverse() for the whole list: the address differs only in the id.
    url_pattern = player_public_url(tournament, _URL_SENTINEL, base)
    entrants = list(Entrant.objects.filter(tournament=tournament).order_by("id"))
    in_force = in_force_for(tournament=tournament, entrants=entrants, past_wins=False)
    for number, entrant in enumerate(entrants, start=1):
        lots = drawn.get(entrant.id)
        duties = in_force[entrant.id].duties
        mode, owed, reasons, error = _restriction(tournament, kind, entrant, lots, with_lots,
                                                  duties)
        lots_drawn: tuple[str, ...] | None = None
        if lots is not None:
            lots_drawn = tuple(str(g) for g in lots.get("genres", ()) if str(g) in genre_names)
            lots_drawn += tuple(str(f) for f in lots.get("formats", ()))
        seat = seats.get(entrant.id)
        rows.append(EntrantDoc(
            id=entrant.id, number=number, name=entrant.name, reading=entrant.reading,
            card_name=entrant.card_name, home_store=entrant.home_store,
            q_level=duties.q_level, rank=rank_name(ranks, duties.q_level), seed=entrant.seed,
            mode=mode, lots_owed=owed, lot_reasons=reasons, lots_drawn=lots_drawn,
            lot_error=error, round1_group=seat[0] if seat else "",
            round1_seat=seat[1] if seat else None,
            public_url=url_pattern.replace(str(_URL_SENTINEL), str(entrant.id)),
            checkin_url=checkin_url(entrant, tournament.slug, base),
            fee_paid=entrant.fee_paid, checked_in=entrant.checked_in,
            round1_note=(gettext("シード（{round}回戦から出場）").format(round=seeds_from)
                         if entrant.seed and not seeds_play_round_1(seeds_from)
                         and not seat
                         else ""),
        ))
    return EntrantDocs(tournament_name=tournament.name, restriction=kind, entrants=rows)


@dataclass(frozen=True)
class ShuraRow:
    """One entrant who owes 修羅 lots, and what was drawn (by whom, when, how)."""

    number: int
    name: str
    card_name: str
    reasons: str
    lots_owed: int
    genres: tuple[str, ...] | None
    formats: tuple[str, ...]
    method: str
    by: str
    at: str
    error: str = ""


def shura_records(tournament: Tournament) -> list[ShuraRow]:
    """Entrants owing lots (H4) with the newest recorded draw of each."""
    from django.utils import timezone

    from brackets.models import SpecialFact

    facts: dict[int, Any] = {}
    for fact in (SpecialFact.objects.filter(tournament=tournament, kind="shura_lots",
                                            entrant__isnull=False)
                 .select_related("by").order_by("id")):
        facts[fact.entrant_id] = fact
    rows = []
    kind = first_round_restriction(tournament)
    with_lots = lots_apply(tournament)
    entrants = list(Entrant.objects.filter(tournament=tournament).order_by("id"))
    in_force = in_force_for(tournament=tournament, entrants=entrants, past_wins=False)
    for number, entrant in enumerate(entrants, start=1):
        _mode, owed, reasons, error = _restriction(tournament, kind, entrant, None, with_lots,
                                                   in_force[entrant.id].duties)
        fact = facts.get(entrant.id)
        if not owed and not error and fact is None:
            continue
        data = fact.data if fact is not None else {}
        rows.append(ShuraRow(
            number, entrant.name, entrant.card_name, "・".join(dict.fromkeys(reasons)), owed,
            tuple(data.get("genres", ())) if fact is not None else None,
            tuple(data.get("formats", ())),
            {"app": gettext("アプリ抽選"), "physical": gettext("くじ（記録）")
             }.get(data.get("method", ""), ""),
            fact.by.get_username() if fact is not None and fact.by else "",
            timezone.localtime(fact.at).strftime("%m/%d %H:%M") if fact is not None else "",
            error))
    return rows
