"""Logins are throttled (django-axes) and the organiser can lift a lockout; new staff
accounts obey Django's password validators and a clean username rule (issue 19,
defects 7 and 9)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from brackets.models import Membership, Role, Tournament
from tests.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def _login(client: Client, username: str, password: str) -> Any:
    return client.post(LOGIN, {"username": username, "password": password})


def _logged_in(response: Any) -> bool:
    return response.status_code == 302 and "/accounts/login/" not in response["Location"]


def test_the_right_password_logs_in(cast: dict[str, Any]) -> None:
    assert _logged_in(_login(Client(), "desk", PASSWORD))


def test_after_too_many_wrong_passwords_the_right_one_is_refused(cast: dict[str, Any]) -> None:
    tablet = Client()
    for _n in range(settings.AXES_FAILURE_LIMIT):
        response = _login(tablet, "desk", "wrong-password")
        assert response.status_code in (200, 429)
    locked = _login(tablet, "desk", PASSWORD)
    assert locked.status_code == 429
    html = locked.content.decode()
    assert 'id="login-locked"' in html and "15分間ログインできません" in html
    assert "ロック解除" in html
    assert "_auth_user_id" not in tablet.session


def test_a_right_password_before_the_limit_clears_the_count(cast: dict[str, Any]) -> None:
    tablet = Client()
    for _n in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(tablet, "desk", "wrong-password")
    assert _logged_in(_login(tablet, "desk", PASSWORD))
    tablet.logout()
    for _n in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(tablet, "desk", "wrong-password")
    assert _logged_in(_login(tablet, "desk", PASSWORD))


def test_the_lockout_is_per_username(cast: dict[str, Any]) -> None:
    tablet = Client()
    for _n in range(settings.AXES_FAILURE_LIMIT):
        _login(tablet, "desk", "wrong-password")
    assert _logged_in(_login(Client(), "bracket", PASSWORD))


def test_the_organiser_lifts_a_lockout_then_login_works(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    tablet = Client()
    for _n in range(settings.AXES_FAILURE_LIMIT):
        _login(tablet, "desk", "wrong-password")
    assert _login(tablet, "desk", PASSWORD).status_code == 429
    organiser = client_for(cast["organiser"])
    page = organiser.get(reverse("staff_list", args=[tournament.slug])).content.decode()
    assert "ログイン停止中" in page
    membership = Membership.objects.get(tournament=tournament, user=cast["desk"])
    unlock = reverse("staff_unlock", args=[tournament.slug, membership.id])
    assert client_for(cast["desk"]).post(unlock).status_code == 403  # not the desk's to lift
    done = organiser.post(unlock, follow=True)
    assert "ロックを解除しました" in done.content.decode()
    assert "ログイン停止中" not in done.content.decode()
    assert _logged_in(_login(tablet, "desk", PASSWORD))


def test_an_organiser_cannot_unlock_another_tournaments_staff(
        tournament: Tournament, other_tournament: Tournament, cast: dict[str, Any]) -> None:
    theirs = Membership.objects.get(tournament=other_tournament, user=cast["outsider"])
    response = client_for(cast["organiser"]).post(
        reverse("staff_unlock", args=[tournament.slug, theirs.id]))
    assert response.status_code == 404


def _add_staff(tournament: Tournament, organiser: Any, username: str, password: str) -> Any:
    return client_for(organiser).post(reverse("staff_list", args=[tournament.slug]),
                                      {"username": username, "password": password,
                                       "role": Role.DESK})


@pytest.mark.parametrize("password", ["12345678", "password", "short", "newdesk1"])
def test_a_weak_password_for_a_new_staff_account_is_refused(
        tournament: Tournament, cast: dict[str, Any], password: str) -> None:
    response = _add_staff(tournament, cast["organiser"], "newdesk1", password)
    assert response.status_code == 200
    assert response.context["form"].errors["password"]
    assert not get_user_model().objects.filter(username="newdesk1").exists()


def test_a_strong_password_makes_the_account(tournament: Tournament,
                                             cast: dict[str, Any]) -> None:
    response = _add_staff(tournament, cast["organiser"], "newdesk", "tide-lantern-94")
    assert response.status_code == 302
    assert get_user_model().objects.get(username="newdesk").check_password("tide-lantern-94")


@pytest.mark.parametrize("username", ["desk two", "<b>desk</b>", "a\u200b", "\u200b", "desk\tx"])
def test_a_username_with_spaces_or_markup_is_refused(tournament: Tournament,
                                                     cast: dict[str, Any],
                                                     username: str) -> None:
    response = _add_staff(tournament, cast["organiser"], username, "tide-lantern-94")
    errors = response.context["form"].errors["username"] if response.status_code == 200 else []
    if username == "a\u200b":  # the invisible character is dropped: the name is "a"
        assert response.status_code == 302
        assert get_user_model().objects.filter(username="a").exists()
        return
    assert errors and ("使えるのは" in errors[0] or "入力してください" in errors[0])
    assert not get_user_model().objects.filter(username=username).exists()


def test_generated_passwords_pass_the_validators() -> None:
    from django.contrib.auth.password_validation import validate_password

    from brackets.services.tournaments import generated_password

    for _n in range(50):
        validate_password(generated_password("organiser"),
                          user=get_user_model()(username="organiser"))


@pytest.fixture
def password_checks_taken() -> Any:
    """Every password-check place of the login backend held, as a login flood holds them."""
    from brackets.perf import auth_backend

    held = [auth_backend._in_flight.acquire(blocking=False)
            for _n in range(auth_backend.LOGINS_IN_FLIGHT)]
    assert all(held)
    yield
    for _n in held:
        auth_backend._in_flight.release()


def test_a_login_while_the_password_checks_are_taken_is_told_to_wait(
        cast: dict[str, Any], password_checks_taken: None) -> None:
    from axes.models import AccessAttempt

    response = _login(Client(), "desk", PASSWORD)
    assert response.status_code == 200
    html = response.content.decode()
    assert "ログインが混み合っています" in html
    assert 'id="id_username" value="desk"' in html  # kept for the next try
    assert not AccessAttempt.objects.filter(username="desk").exists()  # not a wrong password


def test_a_login_waits_no_longer_than_its_limit_for_the_check_before_it(
        cast: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from brackets.perf import auth_backend

    monkeypatch.setattr(auth_backend, "WAIT_SECONDS", 0)
    with auth_backend._hashing:  # another login is hashing its password
        response = _login(Client(), "desk", PASSWORD)
    assert "ログインが混み合っています" in response.content.decode()
    assert _logged_in(_login(Client(), "desk", PASSWORD))


def test_a_flood_of_made_up_usernames_does_not_touch_a_logged_in_tablet(
        cast: dict[str, Any]) -> None:
    tablet = client_for(cast["bracket"])
    flooder = Client()
    for n in range(settings.AXES_FAILURE_LIMIT + 2):
        assert _login(flooder, f"x-{n}", "wrong-password").status_code in (200, 429)
    assert _login(flooder, "bracket", "wrong-password").status_code == 200
    assert tablet.get("/").status_code == 200
    assert tablet.session.get("_auth_user_id") == str(cast["bracket"].pk)


def test_expired_attempts_are_swept_once_a_minute_not_at_every_failed_login(
        cast: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from brackets.perf import auth_backend

    now = [1000.0]
    monkeypatch.setattr(auth_backend, "_clock", lambda: now[0])
    monkeypatch.setattr(auth_backend, "_last_sweep", [])

    def sweeps(username: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            _login(Client(), username, "wrong-password")
        # The sweep: expired attempts read (to delete them with their expirations).
        return sum('"axes_accessattempt"."attempt_time" <=' in q["sql"] for q in queries)

    assert sweeps("x-1") == 1
    assert sweeps("x-2") == 0
    now[0] += auth_backend.SWEEP_EVERY_SECONDS
    assert sweeps("x-3") == 1
