"""#14-5: a player from another machine's tournament file links to a registry player on
its own only when a card name and the name or reading agree with exactly one player;
every other overlap goes to an organiser's review, and no overlap is a new player."""

from __future__ import annotations

import pytest

from brackets.engine import CERTAIN, NEW, UNCERTAIN, PlayerKeys, registry_match


def _p(key: str, name: str, reading: str, *cards: str, taken: bool = False) -> PlayerKeys:
    return PlayerKeys(key, name, reading, frozenset(cards), taken)


YAMADA = _p("f1", "山田太郎", "やまだたろう", "やまだ")


@pytest.mark.parametrize(("registry", "kind", "key", "reasons"), [
    # card + name: certain
    ([_p("1", "山田太郎", "", "やまだ", "たろう")], CERTAIN, "1", [""]),
    # card + reading (name written another way): certain
    ([_p("1", "山田 太朗", "やまだたろう", "やまだ")], CERTAIN, "1", [""]),
    # same card, another person's name: review
    ([_p("1", "鈴木一郎", "すずきいちろう", "やまだ")], UNCERTAIN, "", ["same_card_other_name"]),
    # same name, no card in common: review
    ([_p("1", "山田太郎", "やまだたろう", "たろう")], UNCERTAIN, "", ["same_name_no_card"]),
    # two certain players: review, neither linked
    ([_p("1", "山田太郎", "", "やまだ"), _p("2", "", "やまだたろう", "やまだ")], UNCERTAIN, "",
     ["several_certain", "several_certain"]),
    # the certain player already stands for another entrant of this event: review
    ([_p("1", "山田太郎", "", "やまだ", taken=True)], UNCERTAIN, "", ["already_in_event"]),
    # a certain one and a doubtful one: the certain one links
    ([_p("1", "山田太郎", "", "やまだ"), _p("2", "山田太郎", "", "べつ")], CERTAIN, "1", [""]),
    # nothing in common: new
    ([_p("1", "鈴木一郎", "すずきいちろう", "すずき")], NEW, "", []),
    ([], NEW, "", []),
])
def test_registry_match_rule_table(registry: list[PlayerKeys], kind: str, key: str,
                                   reasons: list[str]) -> None:
    verdict = registry_match(YAMADA, registry)
    assert (verdict.kind, verdict.key) == (kind, key)
    if kind != CERTAIN:
        assert [c.reason for c in verdict.candidates] == reasons


def test_empty_keys_match_nothing() -> None:
    nameless = _p("f2", "", "", "")
    assert registry_match(nameless, [_p("1", "", "", "")]).kind == NEW


def test_shared_cards_are_named_for_the_review_page() -> None:
    verdict = registry_match(_p("f1", "山田", "", "やまだ", "たろう"),
                             [_p("1", "鈴木", "", "たろう", "やまだ", "ほか")])
    assert verdict.candidates[0].shared_cards == ("たろう", "やまだ")
