"""What a player's earlier sets use, as their counting counts it (H3), and the units of the screen."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from brackets.engine.catalog import Catalog
from brackets.engine.errors import RuleRefusal
from brackets.engine.restrictions.rules import Counting, HistoryEntry, PlayerRules


@dataclass(frozen=True)
class Usage:
    """What a player has used in the sets that count, each with the round of its first use.

    ``units`` are what counts as "the format" for this player (H3: groups under 高火力,
    single formats under 低火力); ``groups`` are always the format groups, for pages that
    show the columns; ``pairs`` are (genre, unit), what PINPOINT bans (H2). Insertion order
    is the order of first use.
    """

    genres: Mapping[str, str]
    units: Mapping[str, str]
    groups: Mapping[str, str]
    pairs: Mapping[tuple[str, str], str]


def usage(catalog: Catalog, rules: PlayerRules, entries: Iterable[HistoryEntry]) -> Usage:
    """What ``entries`` use, as ``rules`` count it; every entry given counts (pick a window
    with :func:`window_entries`). A genre the catalog does not know, or a sub-genre set
    under another genre, is bad data and raises: it would silently ban nothing."""
    genres: dict[str, str] = {}
    units: dict[str, str] = {}
    groups: dict[str, str] = {}
    pairs: dict[tuple[str, str], str] = {}
    for entry in entries:
        sel = entry.selection
        catalog.require_genre(sel.genre)
        if catalog.is_subgenre(sel.format) and catalog.parent_of(sel.format) != sel.genre:
            raise RuleRefusal("subgenre_genre_mismatch",
                              f"{sel.format} belongs to {catalog.parent_of(sel.format)}, "
                              f"not {sel.genre}", subgenre=sel.format, genre=sel.genre,
                              parent=catalog.parent_of(sel.format), round=entry.round)
        unit = unit_of(catalog, sel.format, rules)
        genres.setdefault(sel.genre, entry.round)
        units.setdefault(unit, entry.round)
        groups.setdefault(catalog.group_of(sel.format), entry.round)
        pairs.setdefault((sel.genre, unit), entry.round)
    return Usage(genres, units, groups, pairs)



def unit_of(catalog: Catalog, fmt: str, rules: PlayerRules) -> str:
    """The name that counts as "the format" of ``fmt`` for this player (H3).

    GROUPED: the group. INDIVIDUAL: the format itself, except sub-genre sets, which count as
    the sub-genre group unless ``subgenres_as_one`` is off.
    """
    group = catalog.group_of(fmt)
    if rules.counting is Counting.GROUPED:
        return group
    if group == catalog.subgenre_group and rules.subgenres_as_one:
        return group
    return fmt


def units_of(catalog: Catalog, rules: PlayerRules) -> tuple[str, ...]:
    """All units of the selection screen for this player's counting, in display order."""
    if rules.counting is Counting.GROUPED:
        return catalog.group_names
    return catalog.memo(("units", rules.subgenres_as_one),
                        lambda: _individual_units(catalog, rules))


def _individual_units(catalog: Catalog, rules: PlayerRules) -> tuple[str, ...]:
    result: list[str] = []
    for group in catalog.group_names:
        if group == catalog.subgenre_group and rules.subgenres_as_one:
            result.append(group)
        else:
            result.extend(catalog.formats_in(group))
    return tuple(result)


def group_of_unit(catalog: Catalog, unit: str) -> str:
    if unit in catalog.group_names:
        return unit
    return catalog.group_of(unit)


def window_entries(history: Iterable[HistoryEntry], window: str | None) -> list[HistoryEntry]:
    """The entries that count in ``window``: recorded and in that window (none for None)."""
    if window is None:
        return []
    return [e for e in history if e.recorded and e.window == window]
