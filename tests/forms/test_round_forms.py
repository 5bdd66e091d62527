"""The rounds pages' forms read a post exactly as the views did by hand: a missing field
takes its default, text is kept as typed, and a malformed post is refused with the words
staff already see (the services keep every rule check)."""

from __future__ import annotations

import pytest
from django.http import QueryDict

from brackets.forms.match import (
    CardsPhysicalForm,
    ConfirmForm,
    MatchActionForm,
    PenaltyRevokeForm,
    ResultsForm,
    SeatsForm,
    SelectionForm,
)
from brackets.forms.special import DiceForm, PartnerForm, ShuraLotsForm


def post(query: str) -> QueryDict:
    return QueryDict(query)


def test_selection_splits_the_set_and_keeps_the_tap() -> None:
    form = SelectionForm(post("seat=2&set=芸能|四択&difficulty=HARD&confirm_illegal=1"
                              "&version=7&key=k-s2"))
    assert form.is_valid()
    data = form.cleaned_data
    assert (data["seat"], data["set"], data["difficulty"]) == (2, ("芸能", "四択"), "HARD")
    assert (data["confirm_illegal"], data["version"], data["key"]) == (True, 7, "k-s2")


@pytest.mark.parametrize(("query", "refusal"), [
    ("seat=x&set=芸能|四択", ("サテを選んでください。", "")),
    ("seat=&set=芸能|四択", ("サテを選んでください。", "")),
    ("seat=1&set=芸能", ("出題（ジャンル・形式）を選んでください。", "set")),
    ("seat=x&set=", ("サテを選んでください。", "")),  # the seat is read first, as before
])
def test_selection_refusals(query: str, refusal: tuple[str, str]) -> None:
    form = SelectionForm(post(query))
    assert not form.is_valid()
    assert form.refusal() == refusal


def test_a_missing_seat_reads_as_seat_0_for_the_service_to_refuse() -> None:
    form = SelectionForm(post("set=芸能|四択"))
    assert form.is_valid() and form.cleaned_data["seat"] == 0


def test_version_that_is_not_digits_reads_as_not_sent() -> None:
    for raw, want in (("12", 12), ("", None), ("-1", None), ("v3", None)):
        form = ConfirmForm(post(f"version={raw}"))
        assert form.is_valid() and form.cleaned_data["version"] == want
    assert ConfirmForm(post("")).is_valid()


def test_results_rows_are_the_seats_that_posted_a_score() -> None:
    form = ResultsForm(post("score_1=3200&place_1=1&score_2=&score_4=900&place_4=2"))
    assert form.is_valid()
    assert form.rows() == {1: ("3200", "1"), 2: ("", ""), 4: ("900", "2")}


def test_match_actions_read_an_empty_seat_as_none() -> None:
    form = MatchActionForm(post("seat=&reason= 遅刻 "))
    assert form.is_valid()
    assert (form.cleaned_data["seat"], form.cleaned_data["reason"]) == (0, " 遅刻 ")
    bad = PenaltyRevokeForm(post("seat=1&penalty="))
    assert not bad.is_valid() and bad.refusal() == ("入力を確認してください。", "")


def test_seat_order_keeps_empty_seats() -> None:
    form = SeatsForm(post("seat_order_1=5&seat_order_2=&seat_order_3=7"))
    assert form.is_valid() and form.order() == [5, None, 7]


def test_half_a_card_is_refused_with_the_cards_field() -> None:
    form = CardsPhysicalForm(post("card_genre_1=芸能&card_group_1=A&card_genre_2=スポーツ"))
    assert not form.is_valid()
    assert form.refusal() == ("カード2はジャンルと形式群の両方を選んでください。", "cards")
    whole = CardsPhysicalForm(post("card_genre_1=芸能&card_group_1=A"))
    assert whole.is_valid() and whole.cleaned_data["cards"] == [("芸能", "A")]


def test_dice_rolls_and_partner() -> None:
    form = DiceForm(post("a=3&b=4&rolls=5-6 2-1"))
    assert form.is_valid() and form.cleaned_data["rolls"] == [(5, 6), (2, 1)]
    assert DiceForm(post("a=3&b=4&rolls=")).is_valid()
    assert DiceForm(post("a=3&b=4&rolls=5-x")).refusal() == ("入力を確認してください。", "")
    partner = PartnerForm(post("contender=3&partner= "))
    assert partner.is_valid() and partner.cleaned_data["partner"] is None


def test_shura_lots_physical_or_app() -> None:
    form = ShuraLotsForm(post("entrant=4&method=physical&genre=芸能&genre=&format=四択"))
    assert form.is_valid()
    assert (form.physical_genres(), form.formats()) == (["芸能"], ["四択"])
    app = ShuraLotsForm(post("entrant=&genre=芸能"))
    assert app.is_valid() and app.physical_genres() is None
    assert app.cleaned_data["entrant"] == 0
