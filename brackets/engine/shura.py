"""修羅 (seed 002, H0, H4, H5): entry eligibility, lots owed, and the lot draws.

The desk records facts about an entrant (titles, past Shiga wins, seed/invitation status,
a voluntary 修羅の道, extra self-declared lots, past wins of this event); this module turns
them into the number of genre lots owed (H4), the format lots a past champion may add (H5),
and draws the lots reproducibly with :class:`~brackets.engine.lottery.Lottery`. The drawn
genres and formats go into :class:`~brackets.engine.restrictions.PlayerRules` as whole-event
bans, and any 修羅 player plays BOMBER whatever their rank.

What an event owes is its :class:`ShuraRules` (the lots each ground owes, whether 修羅の道
may be chosen, whether past champions draw format lots), composed per event; the defaults
are 堅田's, read as follows.

Readings (settings where the page is not explicit):

* each of the three H4 conditions gives exactly one lot, however many titles or wins lie
  behind it ("1本", cumulative across the three);
* a volunteer lot (3-b) exists only for a player meeting none of the three conditions;
  self-declared extra lots (6-c-ii) imply 修羅の道, so a player with no condition who asks for
  extra lots draws 1 + extra;
* more than the cap (4) is a desk error (:class:`RuleRefusal`), not a silent clamp;
* format lots are drawn from the ordinary format groups (セレクト, パネル, キーボード,
  マルチセレクト; **inference**: the H5 player is Q≥50, hence 高火力, for whom a format is its
  column; sub-genre sets and ランダム are not "出題形式"). The pool is a parameter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from brackets.engine.catalog import Catalog
from brackets.engine.errors import EngineBug, RuleRefusal, Violation
from brackets.engine.lottery import Lottery
from brackets.engine.restrictions import (
    DEFAULT_THRESHOLDS,
    Mode,
    PlayerRules,
    QThresholds,
    player_rules_for,
)

#: 6-c-ii: at most four lots per person.
MAX_LOTS = 4


@dataclass(frozen=True)
class ShuraRules:
    """What an event's 修羅 owes, as its organisers compose it; the defaults are 堅田's.

    ``national_title``, ``shiga_winner`` and ``seed_or_invitation``: the genre lots each
    3-a ground owes (1 each at 堅田, cumulative; 0: the ground owes none).
    ``voluntary``: a player may choose 修羅の道 and declare extra lots (3-b, 6-c-ii).
    ``champion_format_lots``: a past champion may draw format lots (6-c-iii, H5).
    """

    national_title: int = 1
    shiga_winner: int = 1
    seed_or_invitation: int = 1
    voluntary: bool = True
    champion_format_lots: bool = True

    def lots_for(self, ground: str) -> int:
        """The genre lots one 3-a ground owes under these rules."""
        return int(getattr(self, ground))

    @property
    def most_for_one_ground(self) -> int:
        """The most lots a single ground owes (the cap must leave room for it)."""
        return max(self.national_title, self.shiga_winner, self.seed_or_invitation)


#: 堅田's 修羅: every preset's unless its rules compose another.
DEFAULT_SHURA_RULES = ShuraRules()

#: The 3-a grounds, in the rule page's order (as ``record.GROUNDS``).
SHURA_GROUNDS = ("national_title", "shiga_winner", "seed_or_invitation")


@dataclass(frozen=True)
class ShuraDeclaration:
    """What the desk records about one entrant's 修羅 status (H4).

    ``national_title``: (i) national title holder in the named versions; ``shiga_winner``:
    (ii) a qualifying Shiga tournament win; ``seed_or_invitation``: (iii) the named seed or
    invitation holders; ``volunteer``: 修羅の道 (3-b); ``extra_lots``: self-declared extra.
    ``rules``: the event's 修羅 rules the declaration is weighed by (default 堅田's).
    """

    national_title: bool = False
    shiga_winner: bool = False
    seed_or_invitation: bool = False
    volunteer: bool = False
    extra_lots: int = 0
    rules: ShuraRules = DEFAULT_SHURA_RULES


@dataclass(frozen=True)
class LotsOwed:
    """Genre lots an entrant must draw, why, and whether 修羅 forces BOMBER."""

    genre_lots: int
    reasons: tuple[str, ...]

    @property
    def shura(self) -> bool:
        """Any lot makes the player a 修羅: BOMBER regardless of rank (H4)."""
        return self.genre_lots > 0


def lots_owed(declaration: ShuraDeclaration, *, cap: int = MAX_LOTS) -> LotsOwed:
    """Genre lots owed from a declaration (H4, 6-c-ii) under its event's rules; over
    ``cap`` raises. ``reasons`` names each lot's ground, one entry per lot."""
    if declaration.extra_lots < 0:
        raise RuleRefusal("bad_lot_count", "extra lots cannot be negative",
                          extra_lots=declaration.extra_lots)
    rules = declaration.rules
    held = {"national_title": declaration.national_title,
            "shiga_winner": declaration.shiga_winner,
            "seed_or_invitation": declaration.seed_or_invitation}
    grounds = [(g, rules.lots_for(g)) for g in SHURA_GROUNDS if held[g] and rules.lots_for(g)]
    # Where the rules allow no 修羅の道, a typed volunteer or extra lot owes nothing: the
    # desk refuses such a declaration when it is entered.
    extra = declaration.extra_lots if rules.voluntary else 0
    volunteer = rules.voluntary and not grounds and (declaration.volunteer or extra > 0)
    total = sum(n for _g, n in grounds) + (1 if volunteer else 0) + extra
    # The cap comes before the reasons list: a declared count of three billion is refused
    # at once instead of building a list that size (issue 19, defect 2).
    if total > cap:
        raise RuleRefusal("too_many_lots", f"at most {cap} lots per person", lots=total,
                          cap=cap)
    reasons = [g for g, n in grounds for _i in range(n)]
    if volunteer:
        reasons.append("volunteer")
    reasons.extend(["extra"] * extra)
    return LotsOwed(total, tuple(reasons))


@dataclass(frozen=True)
class PastWin:
    """A past win of this event: the lots drawn then (genre and format)."""

    genre_lots: int
    format_lots: int = 0

    @property
    def total_lots(self) -> int:
        """L for this win: every lot drawn (くじ総数)."""
        return self.genre_lots + self.format_lots


def past_win_total(past_wins: Iterable[PastWin], *, min_past_genre_lots: int = 4) -> int:
    """H5's L_past: the most lots drawn at a past win with ≥4 genre lots; 0 when none."""
    return max((w.total_lots for w in past_wins if w.genre_lots >= min_past_genre_lots),
               default=0)


def format_lots_allowed(
    past_wins: Iterable[PastWin],
    *,
    q_level: int,
    genre_lots_now: int,
    max_matches: int,
    min_q: int = 50,
    min_past_genre_lots: int = 4,
    genre_lots_required: int = 4,
) -> int:
    """Most format lots a past champion may draw (H5); 0 when none.

    Eligible: a past win with ≥4 genre lots, Q≥50 now (賢者), and drawing 4 genre lots now.
    k ≤ min(L_past − 3, 5 − M) with L_past the largest total among the qualifying wins and
    M the most matches any player can play in this event.
    """
    if max_matches < 1:
        raise EngineBug("bad_max_matches", "an event has at least one match",
                          max_matches=max_matches)
    l_past = past_win_total(past_wins, min_past_genre_lots=min_past_genre_lots)
    if not l_past or q_level < min_q or genre_lots_now < genre_lots_required:
        return 0
    return max(0, min(l_past - 3, 5 - max_matches))


def format_lots_declared(declared: int, *, allowed: int) -> int:
    """The format lots a past champion draws: the number they declare, 0…k (H5).

    「…いずれか低い本数以下の出題形式くじを引き…使用不可とすることができる」: k is a
    maximum, not a duty, so any count from none up to k is the player's to choose.
    """
    if declared < 0:
        raise RuleRefusal("bad_lot_count", "lot counts cannot be negative",
                          format_lots=declared)
    if declared > allowed:
        raise RuleRefusal("too_many_format_lots", f"at most {allowed} format lots",
                          lots=declared, allowed=allowed)
    return declared


FORMAT_LOT_POOLS = ("format_groups", "groups_but_random", "formats")


def format_lot_pool(catalog: Catalog, kind: str = "format_groups") -> tuple[str, ...]:
    """The format-lot types (see module docstring; a preset setting).

    ``format_groups`` (default): the ordinary columns; ``groups_but_random``: those plus
    サブジャンル; ``formats``: every single format except ランダム (a 低火力 reading).
    """
    if kind == "format_groups":
        return tuple(g.name for g in catalog.groups if g.kind == "formats")
    if kind == "groups_but_random":
        return tuple(g.name for g in catalog.groups if g.kind != "random")
    if kind == "formats":
        return tuple(f for f in catalog.format_names if f != catalog.random_format)
    raise RuleRefusal("setting_invalid", f"no format lot pool {kind!r}", value=kind)


@dataclass(frozen=True)
class DrawnLots:
    """One entrant's drawn lots, in draw order, for the 修羅 lottery record."""

    player: str
    genres: tuple[str, ...]
    formats: tuple[str, ...] = ()


def draw_lots(
    lottery: Lottery,
    catalog: Catalog,
    player: str,
    *,
    genre_lots: int,
    format_lots: int = 0,
    format_pool: Sequence[str] | None = None,
    cap: int = MAX_LOTS,
) -> DrawnLots:
    """Draw one entrant's lots without replacement (H4, H5).

    Each entrant draws from a full box of the 7 genre lots (ノンジャンル is never a lot), so
    lots repeat within no player but may between players. The sub-draw is
    ``lottery.child("shura/<player>")``: the same seed gives the same lots whatever order
    the desk calls players in.
    """
    if genre_lots < 0 or format_lots < 0:
        raise RuleRefusal("bad_lot_count", "lot counts cannot be negative",
                          genre_lots=genre_lots, format_lots=format_lots)
    if genre_lots > cap:
        raise RuleRefusal("too_many_lots", f"at most {cap} genre lots", lots=genre_lots,
                          cap=cap)
    pool = tuple(format_pool) if format_pool is not None else format_lot_pool(catalog)
    if format_lots > len(pool):
        raise RuleRefusal("too_many_lots", "more format lots than lot types",
                          lots=format_lots, pool=list(pool))
    sub = lottery.child(f"shura/{player}")
    genres = tuple(sub.child("genres").sample(catalog.lot_genres, genre_lots))
    formats = tuple(sub.child("formats").sample(pool, format_lots)) if format_lots else ()
    return DrawnLots(player, genres, formats)


def validate_drawn(
    catalog: Catalog,
    drawn: DrawnLots,
    *,
    genre_lots: int,
    format_lots: int = 0,
    format_pool: Sequence[str] | None = None,
) -> None:
    """Check lots drawn by hand before recording them: right count, known, no repeats."""
    pool = tuple(format_pool) if format_pool is not None else format_lot_pool(catalog)
    if len(drawn.genres) != genre_lots or len(drawn.formats) != format_lots:
        raise RuleRefusal("lot_count_mismatch", "drawn lots differ from lots owed",
                          player=drawn.player, genres=list(drawn.genres),
                          formats=list(drawn.formats), genre_lots=genre_lots,
                          format_lots=format_lots)
    for genre in drawn.genres:
        if genre not in catalog.lot_genres:
            raise RuleRefusal("not_a_genre_lot", f"{genre!r} is not a genre lot",
                              genre=genre, player=drawn.player)
    for fmt in drawn.formats:
        if fmt not in pool:
            raise RuleRefusal("not_a_format_lot", f"{fmt!r} is not a format lot",
                              format=fmt, player=drawn.player)
    if len(set(drawn.genres)) != len(drawn.genres) or len(set(drawn.formats)) != len(
            drawn.formats):
        raise RuleRefusal("repeated_lot", "lots are drawn without replacement",
                          player=drawn.player)


def shura_player_rules(
    q_level: int,
    owed: LotsOwed,
    drawn: DrawnLots | None,
    *,
    opt_up: Mode | None = None,
    thresholds: QThresholds = DEFAULT_THRESHOLDS,
) -> PlayerRules:
    """A seed-002 player's rules: rank mode (H2/H3), 修羅 BOMBER and lot bans (H4/H5)."""
    if owed.shura and drawn is None:
        raise RuleRefusal("lots_not_drawn", "a 修羅 player's lots must be drawn first")
    return player_rules_for(
        q_level, opt_up=opt_up, shura=owed.shura,
        lot_genres=drawn.genres if drawn else (),
        lot_formats=drawn.formats if drawn else (),
        thresholds=thresholds,
    )


@dataclass(frozen=True)
class QualifierAppearance:
    """An earlier appearance in a qualifier of the same series (for H0-b).

    ``held_on`` sorts chronologically (ISO date); ``card`` identifies the e-AMUSEMENT card.
    """

    qualifier: str
    held_on: str
    card: str


def check_eligibility(
    *,
    card: str,
    holds_main_berth: bool,
    appearances: Sequence[QualifierAppearance] = (),
    series: str = "",
) -> tuple[Violation, ...]:
    """H0: refuse main-event berth holders; require the card of the first appearance.

    Returns violations for the desk to show (entry refused); empty when eligible.
    ``appearances`` are the player's earlier qualifiers of the series, in any order.
    """
    out: list[Violation] = []
    if holds_main_berth:
        out.append(Violation("holds_main_berth", {"series": series}))
    if appearances:
        first = min(enumerate(appearances), key=lambda pair: (pair[1].held_on, pair[0]))[1]
        if card.strip() != first.card.strip():
            out.append(Violation("card_not_first_appearance", {
                "card": card, "first_card": first.card, "first_qualifier": first.qualifier,
                "series": series}))
    return tuple(out)
