"""Corrections to a player's record (#14): what may be withdrawn, corrected or relinked,
and which recorded achievements are one fact.

The registry appends: a withdrawal or a correction is a fact of its own that supersedes
the row it names (with who, when and why), so this module only says whether such a fact
may be recorded now. Each check raises :class:`RuleRefusal` with a code worded for staff
in ``brackets.messages`` and changes nothing.

Readings (**inference**, documented defaults): a correction needs a reason as a withdrawal
does (an organiser's decision against what was entered); a correction that changes nothing
is refused rather than recorded as noise; two achievements are one fact when kind, game
version, date, title and source agree (what two venues record of one win; whitespace is not
a difference), the first recorded one standing for both.
"""

from __future__ import annotations

from collections.abc import Iterable

from brackets.engine import bounds
from brackets.engine.errors import RuleRefusal
from brackets.engine.record import Achievement, check_achievement


def fact_key(a: Achievement) -> tuple[str, str, str, str, str]:
    """What makes two recorded achievements one fact (see the module's reading)."""
    return (a.kind, a.version, a.held_on, " ".join(a.title.split()),
            " ".join(a.source.split()))


def distinct_facts(achievements: Iterable[Achievement]) -> tuple[Achievement, ...]:
    """Each fact once, in the given order: after a merge both records may hold the same
    title or win, and a fact counted twice would owe a lot twice (3-a)."""
    seen: set[tuple[str, str, str, str, str]] = set()
    out = []
    for a in achievements:
        key = fact_key(a)
        if key not in seen:
            seen.add(key)
            out.append(a)
    return tuple(out)


def check_found(*, found: bool) -> None:
    """The achievement or berth named is this player's (or this series'): a stale page
    or a hand-made post names another."""
    if not found:
        raise RuleRefusal("correction_not_found", "no such record here")


def check_reason(reason: str) -> None:
    """A withdrawal, a correction or a relink is an organiser's decision: it says why."""
    if not reason.strip():
        raise RuleRefusal("correction_no_reason", "a correction needs its reason")
    if len(reason.strip()) > bounds.REASON.max_length:
        raise RuleRefusal("correction_reason_long", "the reason is too long",
                          max=bounds.REASON.max_length)


def check_still_in_force(*, withdrawn: bool, corrected: bool) -> None:
    """Only an achievement or a berth still in force can be withdrawn or corrected: the
    history of one already superseded stays as it was."""
    if withdrawn:
        raise RuleRefusal("correction_already_withdrawn", "already withdrawn")
    if corrected:
        raise RuleRefusal("correction_already_corrected", "already corrected")


def check_achievement_correction(old: Achievement, new: Achievement, *, reason: str,
                                 withdrawn: bool, corrected: bool) -> None:
    """A correction: a reason, the old row still in force, the new one a complete
    achievement (date, source) that differs from the old."""
    check_reason(reason)
    check_still_in_force(withdrawn=withdrawn, corrected=corrected)
    check_achievement(new)
    if not new.title.strip():
        raise RuleRefusal("correction_no_title", "a corrected achievement needs its title")
    if fact_key(old) == fact_key(new) and old.limited == new.limited:
        raise RuleRefusal("correction_unchanged", "the correction changes nothing")


def check_rename(*, name: str, reading: str, was_name: str, was_reading: str) -> None:
    """A player's new name and reading: a name, within the bounds, and a change."""
    if not name.strip():
        raise RuleRefusal("rename_no_name", "a player needs a name")
    if len(name.strip()) > bounds.NAME.max_length or \
            len(reading.strip()) > bounds.READING.max_length:
        raise RuleRefusal("rename_too_long", "name or reading too long",
                          max=bounds.NAME.max_length)
    if (name.strip(), reading.strip()) == (was_name.strip(), was_reading.strip()):
        raise RuleRefusal("rename_unchanged", "the name and reading did not change")


def check_entrant_link(*, here: bool, linked_to: int | None, player: int,
                       other_entrant: str = "") -> None:
    """Link an entrant of this tournament (``here``) to registry player ``player``: not the
    player it is linked to already, and not a player who has another entrant in the same
    tournament (``other_entrant`` names that entrant; two entries there mean two people)."""
    if not here:
        raise RuleRefusal("link_entrant_elsewhere", "the entrant is not of this tournament")
    if linked_to == player:
        raise RuleRefusal("link_unchanged", "the entrant is linked to this player already")
    if other_entrant:
        raise RuleRefusal("link_player_entered", "the player has another entrant here",
                          entrant=other_entrant)


def check_entrant_unlink(*, here: bool, linked_to: int | None) -> None:
    if not here:
        raise RuleRefusal("link_entrant_elsewhere", "the entrant is not of this tournament")
    if linked_to is None:
        raise RuleRefusal("unlink_not_linked", "the entrant is linked to no player")
