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

from brackets.models import Entrant, Genre, Rank, Tournament

MODE_LABELS = {"free": "フリー", "pinpoint": "ピンポイント", "bomber": "ボンバーマン"}
COUNTING_LABELS = {"grouped": "高火力", "individual": "低火力"}
LOT_REASONS = {
    "national_title": "全国大会タイトル",
    "shiga_winner": "滋賀大会優勝",
    "seed_or_invitation": "シード・招待権",
    "volunteer": "修羅の道",
    "extra": "追加",
}
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
    checked_in: bool = False

    @property
    def lots_text(self) -> str:
        """What the entry sheet prints in the 修羅くじ row."""
        if self.lot_error:
            return self.lot_error
        if not self.lots_owed:
            return "なし"
        reasons = "・".join(dict.fromkeys(self.lot_reasons))
        text = f"{self.lots_owed}本（{reasons}）"
        if self.lots_drawn:
            text += "　引いたジャンル：" + "、".join(self.lots_drawn)
        elif self.lots_drawn is None:
            text += "　未抽選"
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


def first_round_restriction(tournament: Tournament) -> str:
    """The restriction kind of the tournament's first round: basic, rank or free."""
    try:
        from brackets.engine_adapter import round_plan

        plan = round_plan(tournament.preset)
        rounds = plan.get("rounds") or [{}]
        return str(rounds[0].get("restriction", "rank"))
    except Exception:  # noqa: BLE001 - an unknown preset still prints entry sheets
        return "rank"


def _restriction(kind: str, entrant: Entrant, lots: dict[str, Any] | None
                 ) -> tuple[str, int, tuple[str, ...], str]:
    """(mode text, lots owed, lot reasons, error) for one entrant, from the engine."""
    from brackets.engine.errors import EngineError
    from brackets.engine.restrictions import (
        BASIC_RULE,
        Mode,
        PlayerRules,
        player_rules_for,
    )
    from brackets.engine.shura import ShuraDeclaration, lots_owed

    declaration = ShuraDeclaration(
        national_title=entrant.shura_titles > 0,
        shiga_winner=entrant.shura_local_wins > 0,
        seed_or_invitation=entrant.shura_invited,
        volunteer=entrant.shura_voluntary,
        extra_lots=entrant.shura_extra_lots,
    )
    error = ""
    try:
        owed = lots_owed(declaration)
        count, reasons, shura = owed.genre_lots, owed.reasons, owed.shura
    except EngineError:
        count, reasons, shura = 0, (), True
        error = "くじ数が上限を超えています（受付で確認）"
    rules: PlayerRules
    if kind == "basic":
        rules = BASIC_RULE
    elif kind == "free":
        rules = PlayerRules()
    else:
        try:
            rules = player_rules_for(entrant.q_level,
                                     opt_up=Mode(entrant.opt_up) if entrant.opt_up else None,
                                     shura=shura)
        except EngineError:
            rules = player_rules_for(entrant.q_level, shura=shura)
    mode = MODE_LABELS[str(rules.mode)]
    if str(rules.mode) != "free":
        mode = f"{COUNTING_LABELS[str(rules.counting)]}{mode}"
    if kind == "basic":
        mode = f"基本ルール（{mode}）"
    elif shura:
        mode += "（修羅）"
    elif entrant.opt_up:
        mode += "（プチ修羅の道）"
    return mode, count, tuple(LOT_REASONS.get(r, r) for r in reasons), error


def _drawn_lots(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """Newest 修羅 lot record per entrant (a correction supersedes), when lots are drawn."""
    try:
        from brackets.models import SpecialFact  # type: ignore[attr-defined]
    except ImportError:
        return {}
    drawn: dict[int, dict[str, Any]] = {}
    rows = SpecialFact.objects.filter(tournament=tournament, kind="shura_lots",
                                      entrant__isnull=False).order_by("id")
    for entrant_id, data in rows.values_list("entrant_id", "data"):
        drawn[entrant_id] = data or {}
    return drawn


def _first_round_seats(tournament: Tournament) -> dict[int, tuple[str, int]]:
    """entrant id → (group label, サテ) in round 1, newest seat row per group and number."""
    try:
        from brackets.models import Seat  # type: ignore[attr-defined]
    except ImportError:
        return {}
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
    drawn = _drawn_lots(tournament)
    seats = _first_round_seats(tournament)
    genre_names = set(Genre.objects.filter(version_id=tournament.version_id)
                      .values_list("name", flat=True))
    rows: list[EntrantDoc] = []
    base = base_url or "http://localhost:8000"
    # One reverse() for the whole list: the address differs only in the id.
    url_pattern = player_public_url(tournament, _URL_SENTINEL, base)
    for number, entrant in enumerate(
            Entrant.objects.filter(tournament=tournament).order_by("id"), start=1):
        lots = drawn.get(entrant.id)
        mode, owed, reasons, error = _restriction(kind, entrant, lots)
        lots_drawn: tuple[str, ...] | None = None
        if lots is not None:
            lots_drawn = tuple(str(g) for g in lots.get("genres", ()) if str(g) in genre_names)
            lots_drawn += tuple(str(f) for f in lots.get("formats", ()))
        seat = seats.get(entrant.id)
        rows.append(EntrantDoc(
            id=entrant.id, number=number, name=entrant.name, reading=entrant.reading,
            card_name=entrant.card_name, home_store=entrant.home_store,
            q_level=entrant.q_level, rank=rank_name(ranks, entrant.q_level), seed=entrant.seed,
            mode=mode, lots_owed=owed, lot_reasons=reasons, lots_drawn=lots_drawn,
            lot_error=error, round1_group=seat[0] if seat else "",
            round1_seat=seat[1] if seat else None,
            public_url=url_pattern.replace(str(_URL_SENTINEL), str(entrant.id)),
            fee_paid=entrant.fee_paid, checked_in=entrant.checked_in,
        ))
    return EntrantDocs(tournament_name=tournament.name, restriction=kind, entrants=rows)
