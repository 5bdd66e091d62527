"""Issue 14 item 5: does a player from another machine's tournament file match a player of
this registry?

A series server receives tournament files from venue laptops. Each file's players are
matched against the registry by what identifies a person at the desk: the e-AMUSEMENT card
name and the name or its reading. Only a match that leaves no doubt links on its own; a
match that could be a different person is put before an organiser, because linking two
people wrongly hands one of them the other's titles, berths and first-appearance card (3-a,
H0).

* **certain**: exactly one registry player shares a card with the incoming player *and*
  has the same name or the same reading;
* **uncertain**: a registry player shares a card but neither name nor reading
  (``same_card_other_name``), has the same name or reading but no card in common
  (``same_name_no_card``), or more than one player matches with certainty
  (``several_certain``), or the one certain player is already linked to another entrant of
  the same tournament (``already_in_event``: two entries of one event are two people);
* **new**: nothing in common with anyone.

Keys are compared as the caller folds them (width, kana, case and spaces away: the desk's
search key); an empty key matches nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

CERTAIN = "certain"
UNCERTAIN = "uncertain"
NEW = "new"

#: Why a registry player is only a possible match (shown on the review page).
SAME_CARD_OTHER_NAME = "same_card_other_name"
SAME_NAME_NO_CARD = "same_name_no_card"
SEVERAL_CERTAIN = "several_certain"
ALREADY_IN_EVENT = "already_in_event"


@dataclass(frozen=True)
class PlayerKeys:
    """A player as matching sees them: folded name and reading, folded card names.

    ``key`` identifies the player for the caller (a database id, a file id); ``taken`` says
    the registry player already stands for another entrant of the same tournament.
    """

    key: str
    name: str
    reading: str
    cards: frozenset[str]
    taken: bool = False


@dataclass(frozen=True)
class Candidate:
    """A registry player who may be the incoming one, with the reason for the doubt (or
    ``""`` for the certain one)."""

    key: str
    reason: str
    shared_cards: tuple[str, ...]


@dataclass(frozen=True)
class LinkVerdict:
    """What to do with an incoming player: link to ``key`` (certain), ask an organiser
    about ``candidates`` (uncertain), or record a new player (new)."""

    kind: str
    key: str = ""
    candidates: tuple[Candidate, ...] = ()


def _same_name(a: PlayerKeys, b: PlayerKeys) -> bool:
    return bool(a.name and a.name == b.name) or bool(a.reading and a.reading == b.reading)


def registry_match(incoming: PlayerKeys, registry: Iterable[PlayerKeys]) -> LinkVerdict:
    """Match one incoming player against the registry players that share a card, a name or
    a reading with them (the caller finds those; others are ignored here).

    Certain only when exactly one player shares a card and a name or reading, and that
    player is not already taken in the event; every other overlap is uncertain, listed
    with its reason, certain-looking ones first.
    """
    certain: list[Candidate] = []
    doubtful: list[Candidate] = []
    for player in sorted(registry, key=lambda p: p.key):
        shared = tuple(sorted(incoming.cards & player.cards - {""}))
        same_name = _same_name(incoming, player)
        if shared and same_name:
            certain.append(Candidate(player.key, ALREADY_IN_EVENT if player.taken else "",
                                     shared))
        elif shared:
            doubtful.append(Candidate(player.key, SAME_CARD_OTHER_NAME, shared))
        elif same_name:
            doubtful.append(Candidate(player.key, SAME_NAME_NO_CARD, shared))
    if len(certain) == 1 and not certain[0].reason:
        return LinkVerdict(CERTAIN, certain[0].key, (certain[0],))
    if len(certain) > 1:
        certain = [Candidate(c.key, c.reason or SEVERAL_CERTAIN, c.shared_cards)
                   for c in certain]
    candidates = tuple(certain + doubtful)
    if not candidates:
        return LinkVerdict(NEW)
    return LinkVerdict(UNCERTAIN, "", candidates)
