"""A player's record across events, read by the rules of seed 002 (2-d, 3-a-i…iii, 6-c-iii).

The registry keeps facts (cards with their Q level, achievements with a game version, a
date and a source, wins of this event with the lots drawn then); this module says what the
rules make of them, so the desk never types a 修羅 declaration by hand:

* 2-d: the mode is keyed on the highest of all the player's cards (:func:`highest_card`);
* 3-a-i: a national title (四神/三賢聖・賢帝・賢王・賢将・賢豪) won in 栗東 or ゑ;
* 3-a-ii: a win at a Shiga tournament held while 栗東 or ゑ ran, except events limited by
  accuracy, to non-finalists, to one genre other than ノンジャンル, or tag events;
* 3-a-iii: a 関西杯 seed right in 栗東, or a 賢竜杯:XI invitation or seed right in 栗東;
* 6-c-iii: the past wins of this event, with the lots drawn at each (:class:`PastWin`).

Readings (**inference**, kept as parameters with these defaults): a game version is named by
a short code (``tg`` = トーキョーグリモワール 「栗東」, ``we`` = ワールドエボルブ 「ゑ」); "held
while the version ran" is read from the version the achievement records; each ground gives
one lot however many achievements lie behind it (as :func:`~brackets.engine.shura.lots_owed`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from brackets.engine.errors import RuleRefusal
from brackets.engine.shura import DEFAULT_SHURA_RULES, ShuraDeclaration, ShuraRules

#: 3-a-i and 3-a-ii: 栗東 and ゑ.
TITLE_VERSIONS = ("tg", "we")
SHIGA_VERSIONS = ("tg", "we")
#: 3-a-iii: 栗東 only.
SEED_RIGHT_VERSIONS = ("tg",)

#: Kinds of achievement the rules read.
NATIONAL_TITLE = "national_title"
SHIGA_WIN = "shiga_win"
SEED_RIGHT = "seed_right"
MAIN_BERTH = "main_berth"
ACHIEVEMENT_KINDS = (NATIONAL_TITLE, SHIGA_WIN, SEED_RIGHT, MAIN_BERTH, "other")
#: 3-a-ii's exclusions: a win at such an event is no ground for a lot.
SHIGA_EXCLUSIONS = ("accuracy", "non_finalists", "genre_limited", "tag")

#: The three 3-a grounds, in the rule page's order.
GROUNDS = ("national_title", "shiga_winner", "seed_or_invitation")


@dataclass(frozen=True)
class Achievement:
    """One recorded achievement: what, in which game version, when (ISO date), whence.

    ``key`` identifies it for the caller (shown beside the lot it causes); ``limited`` names
    a 3-a-ii exclusion of the event it was won at ("" when none); ``title`` (the title or
    event won) tells two facts of one kind and date apart (corrections.distinct_facts).
    """

    key: str
    kind: str
    version: str
    held_on: str
    source: str
    limited: str = ""
    title: str = ""


@dataclass(frozen=True)
class ShuraGrounds:
    """The 3-a grounds a record gives, and the achievements behind each."""

    declaration: ShuraDeclaration
    behind: tuple[tuple[str, tuple[Achievement, ...]], ...]

    def achievements_for(self, ground: str) -> tuple[Achievement, ...]:
        """The achievements that make ``ground`` hold (empty when it does not)."""
        return dict(self.behind).get(ground, ())


def check_achievement(achievement: Achievement) -> None:
    """Refuse an achievement the rules cannot weigh: no date, no source, unknown kind."""
    if achievement.kind not in ACHIEVEMENT_KINDS:
        raise RuleRefusal("achievement_kind", f"unknown kind {achievement.kind!r}",
                          kind=achievement.kind)
    if not achievement.held_on.strip():
        raise RuleRefusal("achievement_no_date", "an achievement needs its date",
                          key=achievement.key)
    if not achievement.source.strip():
        raise RuleRefusal("achievement_no_source", "an achievement needs its source",
                          key=achievement.key)
    if achievement.limited and achievement.limited not in SHIGA_EXCLUSIONS:
        raise RuleRefusal("achievement_limited", f"unknown limit {achievement.limited!r}",
                          limited=achievement.limited)


def shura_grounds(
    achievements: Iterable[Achievement],
    *,
    volunteer: bool = False,
    extra_lots: int = 0,
    title_versions: Sequence[str] = TITLE_VERSIONS,
    shiga_versions: Sequence[str] = SHIGA_VERSIONS,
    seed_right_versions: Sequence[str] = SEED_RIGHT_VERSIONS,
) -> ShuraGrounds:
    """3-a-i…iii: the declaration a record gives, with the achievements behind each ground.

    ``volunteer`` and ``extra_lots`` are what the player declares at this event's desk
    (3-b, 6-c-ii); the grounds come from the record only.
    """
    behind: dict[str, list[Achievement]] = {g: [] for g in GROUNDS}
    for a in achievements:
        if a.kind == NATIONAL_TITLE and a.version in title_versions:
            behind["national_title"].append(a)
        elif a.kind == SHIGA_WIN and a.version in shiga_versions and not a.limited:
            behind["shiga_winner"].append(a)
        elif a.kind == SEED_RIGHT and a.version in seed_right_versions:
            behind["seed_or_invitation"].append(a)
    declaration = ShuraDeclaration(
        national_title=bool(behind["national_title"]),
        shiga_winner=bool(behind["shiga_winner"]),
        seed_or_invitation=bool(behind["seed_or_invitation"]),
        volunteer=volunteer, extra_lots=extra_lots)
    return ShuraGrounds(declaration, tuple(
        (g, tuple(sorted(behind[g], key=lambda a: (a.held_on, a.key)))) for g in GROUNDS
        if behind[g]))


def holds_berth(achievements: Iterable[Achievement], *, series: str) -> bool:
    """H0-a: the record holds a main-event berth of ``series`` (its source names it)."""
    return any(a.kind == MAIN_BERTH and series and series in a.source for a in achievements)


@dataclass(frozen=True)
class CardRecord:
    """One of a player's e-AMUSEMENT cards as the registry holds it now."""

    card_name: str
    q_level: int


def highest_card(cards: Sequence[CardRecord]) -> CardRecord | None:
    """2-d: the card with the highest Q level (the first recorded on a tie); None if none."""
    best: CardRecord | None = None
    for card in cards:
        if best is None or card.q_level > best.q_level:
            best = card
    return best


@dataclass(frozen=True)
class DeskDuties:
    """An entrant's 修羅 fields and Q level: what the desk typed, or what is in force.

    ``titles`` and ``local_wins`` count the achievements behind 3-a-i and 3-a-ii (one lot
    each ground however many, as :func:`~brackets.engine.shura.lots_owed` counts);
    ``past_win_lots`` is 6-c-iii's L_past; ``q_level`` keys 2-d's mode. ``rules`` are the
    event's 修羅 rules the fields are weighed by (what each ground owes).
    """

    titles: int = 0
    local_wins: int = 0
    invited: bool = False
    volunteer: bool = False
    extra_lots: int = 0
    past_win_lots: int = 0
    q_level: int = 0
    rules: ShuraRules = DEFAULT_SHURA_RULES

    def declaration(self) -> ShuraDeclaration:
        """The 3-a / 3-b / 6-c-ii declaration these fields make, under ``rules``."""
        return ShuraDeclaration(national_title=self.titles > 0,
                                shiga_winner=self.local_wins > 0,
                                seed_or_invitation=self.invited, volunteer=self.volunteer,
                                extra_lots=self.extra_lots, rules=self.rules)


@dataclass(frozen=True)
class RecordGives:
    """What a player's record gives at this event: the 3-a grounds with the achievements
    behind each, the highest card (2-d), and L_past from the past wins (6-c-iii)."""

    grounds: ShuraGrounds | None = None
    highest: CardRecord | None = None
    past_win_lots: int = 0


#: Override grounds (an organiser's recorded decision) beside the three 3-a grounds.
PAST_WIN_LOTS = "past_win_lots"


def duties_in_force(entered: DeskDuties, record: RecordGives | None,
                    overrides: Mapping[str, int] | None = None, *,
                    rules: ShuraRules = DEFAULT_SHURA_RULES) -> DeskDuties:
    """The one combination rule: what the desk typed, what the record gives, and the
    organiser's overrides, as every page, document and draw reads an entrant's duties.

    The record only adds: each count, flag, L_past and the Q level is the larger of the
    typed and the derived value, so a title the registry does not know yet still counts.
    An override (``ground`` → value) is the organiser's decision with a reason and has the
    last word on its ground: 0 removes the ground even when typed, 1 or more makes it hold
    (keeping a larger count); for ``past_win_lots`` its value is L_past.

    The event's ``rules`` come last: where they allow no 修羅の道 the typed volunteer and
    extra lots are not in force, and where past champions draw no format lots L_past is 0,
    so every reader (the desk, the lottery, the documents) derives the same duties.
    """
    overrides = overrides or {}
    gives = record or RecordGives()
    grounds = gives.grounds

    def behind(ground: str) -> int:
        return len(grounds.achievements_for(ground)) if grounds is not None else 0

    titles = max(entered.titles, behind("national_title"))
    local_wins = max(entered.local_wins, behind("shiga_winner"))
    invited = entered.invited or behind("seed_or_invitation") > 0
    if "national_title" in overrides:
        titles = max(titles, 1) if overrides["national_title"] else 0
    if "shiga_winner" in overrides:
        local_wins = max(local_wins, 1) if overrides["shiga_winner"] else 0
    if "seed_or_invitation" in overrides:
        invited = bool(overrides["seed_or_invitation"])
    past = max(entered.past_win_lots, gives.past_win_lots)
    if PAST_WIN_LOTS in overrides:
        past = overrides[PAST_WIN_LOTS]
    q_level = max(entered.q_level, gives.highest.q_level if gives.highest else 0)
    volunteer, extra = entered.volunteer, entered.extra_lots
    if not rules.voluntary:
        volunteer, extra = False, 0
    if not rules.champion_format_lots:
        past = 0
    return DeskDuties(titles=titles, local_wins=local_wins, invited=invited,
                      volunteer=volunteer, extra_lots=extra, past_win_lots=past,
                      q_level=q_level, rules=rules)
