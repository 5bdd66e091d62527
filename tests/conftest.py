"""Shared fixtures: a small cast of users and named tournament states."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.conf import settings as django_settings
from django.test import Client, override_settings
from django.utils import translation

from brackets.models import Membership, QmaVersion, Role, Tournament
from brackets.services.catalog import catalog_load_builtin
from brackets.views.buzzer_stream import end_every_stream

PASSWORD = "test-password-123"


@pytest.fixture(autouse=True)
def fast_password_hashing() -> Iterator[None]:
    """The shared cast hashes several passwords per test; a fast hasher keeps suites quick.
    (Tests only: production keeps Django's default hasher.) Not through pytest-django's
    ``settings`` fixture, whose name engine tests use for their own parameters."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def empty_caches() -> Iterator[None]:
    """Each test's database is rolled back, so ids and revisions repeat from test to
    test; pages cached by an earlier test must not be served to the next."""
    for cache in caches.all():
        cache.clear()
    yield


@pytest.fixture(autouse=True)
def default_language_after_each_test() -> Iterator[None]:
    """A request in English (LocaleMiddleware) leaves English active in the thread; put the
    default language back so the next test sees Japanese as a fresh visitor would."""
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def streams_ended_before_the_database_is_emptied() -> Iterator[None]:
    """A live server's scoreboard stream outlives the browser that opened it until its next
    write, and its watcher reads the rounds meanwhile; on PostgreSQL that read and the
    flush's TRUNCATE of a transactional test can deadlock. End them first (this fixture is
    set up after pytest-django's database fixtures, so it is torn down before them)."""
    yield
    end_every_stream()


@pytest.fixture
def catalog(db: Any) -> QmaVersion:
    catalog_load_builtin()
    return QmaVersion.objects.get(slug="qma-2016")


def make_user(username: str, **extra: Any) -> Any:
    return get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)


@pytest.fixture
def tournament(catalog: QmaVersion) -> Tournament:
    return Tournament.objects.create(
        slug="kyushu9",
        name="九州杯IX",
        date=datetime.date(2019, 3, 21),
        venue="テスト店",
        version=catalog,
        preset="shop-top2",
        lottery_seed="test-seed",
    )


@pytest.fixture
def other_tournament(catalog: QmaVersion) -> Tournament:
    return Tournament.objects.create(slug="other", name="別の大会", version=catalog)


@pytest.fixture
def cast(tournament: Tournament, other_tournament: Tournament) -> dict[str, Any]:
    """organiser, desk, bracket staff of ``tournament``; outsider organises another one."""
    users = {
        "organiser": make_user("org"),
        "desk": make_user("desk"),
        "bracket": make_user("bracket"),
        "outsider": make_user("outsider"),
        "admin": get_user_model().objects.create_superuser("admin", "", PASSWORD),
    }
    Membership.objects.create(tournament=tournament, user=users["organiser"], role=Role.ORGANISER)
    Membership.objects.create(tournament=tournament, user=users["desk"], role=Role.DESK)
    Membership.objects.create(tournament=tournament, user=users["bracket"], role=Role.BRACKET)
    Membership.objects.create(
        tournament=other_tournament, user=users["outsider"], role=Role.ORGANISER
    )
    return users


def client_for(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def clients(cast: dict[str, Any]) -> dict[str, Client]:
    result = {name: client_for(user) for name, user in cast.items()}
    result["anonymous"] = client_for(None)
    return result


# ------------------------------------------------------------ named tournament states
# Each builds ``tournament`` through the services (tests/states.py says how and what each
# state means); tests/test_states.py checks that every state is what its name says.


@pytest.fixture
def entry_open(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    from tests import states

    return states.entry_open(tournament, cast["organiser"])


@pytest.fixture
def round_1_running(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    from tests import states

    return states.round_1_running(tournament, cast["organiser"])


@pytest.fixture
def after_round_2(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    from tests import states

    return states.after_round_2(tournament, cast["organiser"])


@pytest.fixture
def semi_final_done(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    from tests import states

    return states.semi_final_done(tournament, cast["organiser"])


@pytest.fixture
def final_game_2(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    from tests import states

    return states.final_game_2(tournament, cast["organiser"])


@pytest.fixture
def final_won_2_0(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    from tests import states

    return states.final_won_2_0(tournament, cast["organiser"])


@pytest.fixture
def tournament_finished(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    from tests import states

    return states.tournament_finished(tournament, cast["organiser"])


@pytest.fixture
def katata_entry_open(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    from tests import states

    return states.katata_entry_open(tournament, cast)


@pytest.fixture
def katata_round_1_running(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    from tests import states

    return states.katata_round_1_running(tournament, cast)


@pytest.fixture
def katata_final_running(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    from tests import states

    return states.katata_final_running(tournament, cast)


@pytest.fixture
def buzzer_round_running(tournament: Tournament, cast: dict[str, Any]) -> Any:
    from tests import states

    return states.buzzer_round_running(tournament, cast["organiser"])
