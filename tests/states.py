"""Named tournament states, built only through the services, as the desk and the tablets
would build them: entrants registered and checked in at the desk, rounds configured from the
preset, drawn, started, every selection and result saved through the match services, the
special facts (rule forms, 下関 cards, bans, partners, dice) recorded, and rounds advanced.

Nothing here writes a row through the ORM or forces a status, so a state is always one the
application itself can reach. ``tests/conftest.py`` exposes each state as a fixture;
``tests/test_states.py`` says what each state means.

九州杯IX (preset ``kyushu-cup-ix``), in the order a day runs::

    entry_open → round_1_running → after_round_2 → semi_final_done → final_game_2
    → final_won_2_0 → tournament_finished

堅田大会 (preset ``katata-kansai5-qualifier``)::

    katata_entry_open → katata_round_1_running → katata_final_running

Live buzzer rounds: ``buzzer_round_running``.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from brackets import engine_adapter as ea
from brackets.models import BuzzerRound, Entrant, Group, Round, Seat, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from brackets.services.buzzer import buzzer_event_append
from brackets.services.entrants import Roster, entrant_check_in, entrant_register
from tests.floor.helpers import draw_released
from tests.rounds.helpers import play_group, play_round

KYUSHU = "kyushu-cup-ix"
KATATA = "katata-kansai5-qualifier"

#: The stops of a 九州杯IX day, in order; ``kyushu_play`` runs the day up to one of them.
#: ``round_1_drawn`` … ``finished`` are where ``tests.printing.world.build_kyushu(upto=…)``
#: stops (upto 0 … 7).
KYUSHU_STOPS = (
    "configured", "round_1_drawn", "round_1_running", "after_round_1", "after_round_2",
    "round_3_drawn", "round_4_drawn", "semi_final_drawn", "semi_final_done",
    "third_place_drawn", "final_drawn", "final_game_2", "finished",
)
UPTO_STOPS = {0: "round_1_drawn", 1: "after_round_1", 2: "round_3_drawn", 3: "round_4_drawn",
              4: "semi_final_drawn", 5: "third_place_drawn", 6: "final_drawn", 7: "finished"}


def use_preset(tournament: Tournament, slug: str) -> Tournament:
    """Switch ``tournament`` to the preset ``slug`` (as the organiser does before round 1)."""
    tournament.preset = slug
    tournament.save()
    return tournament


def use_katata(tournament: Tournament) -> Tournament:
    return use_preset(tournament, KATATA)


def register_entrants(tournament: Tournament, user: Any, count: int, *, seeds: int = 0,
                      q_levels: list[int] | None = None, prefix: str = "P",
                      declarations: dict[int, dict[str, Any]] | None = None,
                      check_in_later: bool = True) -> list[Entrant]:
    """``count`` entrants registered at the desk and checked in, in registration order.

    Names follow ``tests.rounds.helpers.add_entrants`` (選手P0001, card P0001); the first
    ``seeds`` are seeds 1..seeds. ``declarations`` adds desk fields (修羅, プチ修羅) by index.
    ``check_in_later``: registered first, then checked in (two desk steps); otherwise
    registered as already checked in, as a walk-in is (one step: large fields stay quick).
    """
    if count > tournament.capacity:
        # The organiser's setting: a field this large needs the desk's limit raised first.
        tournament.capacity = count
        tournament.save(update_fields=["capacity"])
    roster = Roster.load(tournament)  # one load for the whole field, as an import does
    entrants = []
    for i in range(count):
        data: dict[str, Any] = {
            "name": f"選手{prefix}{i + 1:04d}", "card_name": f"{prefix}{i + 1:04d}"[:8],
            "q_level": q_levels[i] if q_levels else 90,
            "seed": i + 1 if i < seeds else None,
        }
        if not check_in_later:
            data["checked_in"] = True
        data.update((declarations or {}).get(i, {}))
        entrant = entrant_register(tournament=tournament, by=user, data=data, roster=roster)
        if check_in_later:
            entrant, _changed = entrant_check_in(tournament=tournament, entrant_id=entrant.pk,
                                                 by=user)
        entrants.append(entrant)
    return entrants


# ------------------------------------------------------------------------- 九州杯IX


def kyushu_play(tournament: Tournament, user: Any, entrants: list[Entrant], stop: str, *,
                seed: int = 1) -> None:
    """Run 九州杯IX (K1–K10) with the registered ``entrants`` up to the named ``stop``.

    Draws, random legal selections and distinct scores, random rule forms (K6), 下関 cards
    drawn by the app (K7), bans written and revealed (K8), partners chosen from the players
    out of the event (K9), the dice and the final's decisions (K10), all through the
    services and one ``random.Random(seed)``.
    """
    order = KYUSHU_STOPS.index(stop)

    def reached(name: str) -> bool:
        return order <= KYUSHU_STOPS.index(name)

    rounds = svc.rounds_configure(tournament=tournament, by=user)
    if reached("configured"):
        return
    rng = random.Random(seed)
    r1, r2, r3, r4, sf, third, final = (list(rounds) + [None] * 7)[:7]
    draw_released(r1, user)
    if reached("round_1_drawn"):
        return
    if reached("round_1_running"):
        svc.round_start(round=r1, by=user)
        return
    play_round(r1, user, rng)
    svc.round_advance(round=r1, by=user)
    draw_released(r2, user)
    if reached("after_round_1"):
        return
    play_round(r2, user, rng)
    svc.round_advance(round=r2, by=user)
    if reached("after_round_2"):
        return
    players, _ = svc.round_players(r3)
    for p in players:
        svc.rule_choice_record(round=r3, entrant=Entrant.objects.get(id=p),
                               rule=rng.choice("AB"), by=user)
    draw_released(r3, user)
    if reached("round_3_drawn"):
        return
    play_round(r3, user, rng)
    svc.round_advance(round=r3, by=user)
    draw_released(r4, user)
    for g in Group.objects.filter(round=r4):
        svc.card_draw(group=g, by=user)
    if reached("round_4_drawn"):
        return
    play_round(r4, user, rng)
    svc.round_advance(round=r4, by=user)
    draw_released(sf, user)
    for g in Group.objects.filter(round=sf):
        for s in Seat.objects.filter(group=g, entrant__isnull=False):
            svc.ban_record(group=g, entrant=s.entrant,
                           genre=rng.choice(["芸能", "社会", "スポーツ"]), by=user)
        svc.ban_reveal(group=g, by=user)
    if reached("semi_final_drawn"):
        return
    play_round(sf, user, rng)
    svc.round_advance(round=sf, by=user)
    if reached("semi_final_done"):
        return
    table = sel.round_table(sel.round_view(sf))
    places = {r.place: int(r.player) for r in table}
    others = [e for e in entrants if e.id not in places.values()]
    svc.partner_record(round=third, contender=Entrant.objects.get(id=places[3]),
                       partner=others[0], by=user)
    svc.partner_record(round=third, contender=Entrant.objects.get(id=places[4]),
                       partner=others[1], by=user)
    draw_released(third, user)
    if reached("third_place_drawn"):
        return
    play_round(third, user, rng)
    svc.round_advance(round=third, by=user)
    svc.partner_record(round=final, contender=Entrant.objects.get(id=places[1]),
                       partner=others[2], by=user)
    svc.partner_record(round=final, contender=Entrant.objects.get(id=places[2]),
                       partner=others[3], by=user)
    dice = svc.dice_record(round=final, players=(places[1], places[2]), by=user)
    svc.final_setup_record(round=final, by=user, winner_decides="seat_order",
                           first=int(dice.data["winner"]), question_order="alternating")
    draw_released(final, user)
    if reached("final_drawn"):
        return
    svc.round_start(round=final, by=user)
    for number, g in enumerate(Group.objects.filter(round=final).order_by("number"), 1):
        if number == 2 and reached("final_game_2"):
            return
        state = sel.series_progress(sel.round_view(final))
        if state and state.finished:
            break
        play_group(g, user, rng)
    svc.round_close(round=final, by=user)
    svc.round_advance(round=final, by=user)


def kyushu_state(tournament: Tournament, user: Any, stop: str, *, count: int = 20,
                 seeds: int = 4, preset: str = KYUSHU, check_in_later: bool = True) -> Tournament:
    """九州杯IX with ``count`` entrants (the first ``seeds`` seeded) run to ``stop``.

    ``preset`` may name another group-round preset for the stops up to round_1_running."""
    use_preset(tournament, preset)
    entrants = register_entrants(tournament, user, count, seeds=seeds,
                                 check_in_later=check_in_later)
    if stop != "entry_open":
        kyushu_play(tournament, user, entrants, stop)
    tournament.refresh_from_db()
    return tournament


def entry_open(tournament: Tournament, user: Any) -> Tournament:
    """九州杯IX at the desk: 20 entrants (4 seeds) registered and checked in, no rounds."""
    return kyushu_state(tournament, user, "entry_open")


def round_1_running(tournament: Tournament, user: Any) -> Tournament:
    """Round 1 drawn and started: 16 players in 4 groups, nothing entered yet."""
    return kyushu_state(tournament, user, "round_1_running")


def after_round_2(tournament: Tournament, user: Any) -> Tournament:
    """Rounds 1 and 2 played and advanced; round 3 (K6) configured, its 20 players known,
    no rule form recorded."""
    return kyushu_state(tournament, user, "after_round_2")


def semi_final_done(tournament: Tournament, user: Any) -> Tournament:
    """Rounds 1–5 played and advanced: the semi-final's top 2 go to the final, 3rd and 4th
    to the third-place match; no partner chosen yet."""
    return kyushu_state(tournament, user, "semi_final_done")


def final_game_2(tournament: Tournament, user: Any) -> Tournament:
    """The third-place match decided, the final (best of 3) running: game 1 played, game 2
    next with nothing entered."""
    return kyushu_state(tournament, user, "final_game_2")


def tournament_finished(tournament: Tournament, user: Any) -> Tournament:
    """九州杯IX played to the end (20 entrants, 4 seeds; ``build_kyushu(count=20, seeds=4)``)."""
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, user, count=20, seeds=4)
    tournament.refresh_from_db()
    return tournament


def final_won_2_0(tournament: Tournament, user: Any) -> Tournament:
    """final_game_2, then game 2 won by game 1's winner: the series is decided 2–0 and game 3
    is not needed (K10)."""
    final_game_2(tournament, user)
    game1, game2 = list(Group.objects.filter(round__tournament=tournament, round__kind="partner_series")
                        .order_by("game"))[:2]
    play_game_won_by(game2, user, game_winner(game1), random.Random(2))
    tournament.refresh_from_db()
    return tournament


def game_winner(game: Group) -> int:
    """The contender who won the pair game ``game`` (K9/K10: partners' places do not count)."""
    roles = sel.pair_roles(sel.group_view(Group.objects.get(id=game.id)))
    return int(next(player for player, role in roles.items() if role == "winner"))


def play_game_won_by(game: Group, user: Any, winner: int, rng: random.Random) -> None:
    """Legal sets for every seat, then a result screen where ``winner`` tops the group."""
    catalog = ea.catalog_for(game.round.tournament.version_id)
    for seat in Seat.objects.filter(group=game, superseded_by__isnull=True).order_by("number"):
        gv = sel.group_view(Group.objects.get(id=game.id))
        options = [o for o in sel.seat_choices(gv, catalog)[seat.number].choices.options()
                   if o.legal]
        option = options[rng.randrange(len(options))]
        svc.selection_save(group=Group.objects.get(id=game.id), by=user,
                           seat_number=seat.number, genre=option.genre, format=option.format,
                           difficulty="HARD")
    results_won_by(game, user, winner)


def results_won_by(game: Group, user: Any, winner: int) -> None:
    """Save a result screen where ``winner`` tops the group (the others in seat order)."""
    seats = list(Seat.objects.filter(group=game, superseded_by__isnull=True)
                 .order_by("number"))
    ordered = sorted(seats, key=lambda s: (s.entrant_id != winner, s.number))
    rows = {s.number: (str(Decimal(300 - 20 * i)), i + 1) for i, s in enumerate(ordered)}
    svc.results_save(group=Group.objects.get(id=game.id), by=user, rows=rows)


# ------------------------------------------------------------------------- 堅田大会

#: 13 entrants across the ranks: BOMBER (Q≥80), PINPOINT (50–79), FREE (≤49).
KATATA_Q_LEVELS = [95, 85, 82, 70, 65, 60, 55, 45, 40, 33, 30, 20, 10]


def katata_entry_open(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    """堅田大会 at the desk: 13 entrants checked in across the three modes (H2), one national
    title holder (H4 (i): one lot), one volunteer for 修羅の道 with one extra lot (two lots),
    one プチ修羅 (a Q40 player declaring BOMBER); no rounds yet."""
    use_katata(tournament)
    register_entrants(tournament, cast["desk"], 13, q_levels=KATATA_Q_LEVELS, declarations={
        0: {"shura_titles": 1},
        1: {"shura_voluntary": True, "shura_extra_lots": 1},
        8: {"opt_up": "bomber"},
    })
    tournament.refresh_from_db()
    return tournament


def katata_round_1_running(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    """katata_entry_open, then the rounds configured, the 修羅 lots of both declared players
    drawn by the desk (H4), round 1 drawn and started."""
    katata_entry_open(tournament, cast)
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    declared = (Entrant.objects.filter(tournament=tournament, shura_titles__gt=0)
                | Entrant.objects.filter(tournament=tournament, shura_voluntary=True))
    for entrant in declared.order_by("id"):
        svc.shura_lots_draw(tournament=tournament, entrant=entrant, by=cast["desk"])
    draw_released(rounds[0], cast["organiser"])
    svc.round_start(round=rounds[0], by=cast["organiser"])
    tournament.refresh_from_db()
    return tournament


def _katata_to_the_final(tournament: Tournament, cast: dict[str, Any]
                         ) -> tuple[list[Round], random.Random]:
    """The 13 entrants of KATATA_Q_LEVELS (no 修羅); every round before the final played and
    advanced, the final drawn. The organiser draws and advances, bracket staff enter."""
    use_katata(tournament)
    register_entrants(tournament, cast["desk"], 13, q_levels=KATATA_Q_LEVELS)
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    rng = random.Random(7)
    for rnd in rounds[:-1]:
        draw_released(rnd, cast["organiser"])
        play_round(rnd, cast["bracket"], rng)
        svc.round_advance(round=rnd, by=cast["organiser"])
    draw_released(rounds[-1], cast["organiser"])
    return rounds, rng


def katata_final_running(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    """堅田大会's ranked final (H1: all four ranked) drawn and started, nothing entered."""
    rounds, _rng = _katata_to_the_final(tournament, cast)
    svc.round_start(round=rounds[-1], by=cast["organiser"])
    tournament.refresh_from_db()
    return tournament


def katata_final_played(tournament: Tournament, cast: dict[str, Any]) -> list[Round]:
    """堅田大会 with every round played and the final's results entered, not yet closed."""
    rounds, rng = _katata_to_the_final(tournament, cast)
    play_round(rounds[-1], cast["bracket"], rng)
    return rounds


# ------------------------------------------------------------------------- buzzer


def buzzer_round_running(tournament: Tournament, user: Any) -> BuzzerRound:
    """A live 5○2× round (L1 style, 35 questions, 2 slots) of four players: s1 answered
    right twice, s2 once wrong, one question through; nobody has won or is out."""
    from tests.buzzer_web.factories import make_round

    round_ = make_round(tournament, players=4, by=user)
    for seq, tap in enumerate([{"kind": "correct", "player": "s1"},
                               {"kind": "wrong", "player": "s2"},
                               {"kind": "thru"},
                               {"kind": "correct", "player": "s1"}]):
        buzzer_event_append(round=round_, data=tap, expected_seq=seq, by=user)
    round_.refresh_from_db()
    return round_
