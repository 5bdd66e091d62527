"""The login backend: Django's ModelBackend, checking at most one password at a time; and
django-axes' handler, sweeping expired attempts once a minute.

Why one at a time: a password check is a deliberately slow hash (PBKDF2, about 0.3-1.5 s
of a core), and a login flood that is never locked out (a new made-up username on every
try still costs a hash) would otherwise keep several server threads hashing at once and
take the cores the tablets' saves need. With the gate a flood holds at most one thread
hashing and one waiting; any further login at that moment is answered at once with "busy,
try again", and staff who are already logged in never pass through here.

Why the sweep once a minute: django-axes deletes expired attempts before recording every
failed login, a DELETE that scans the whole unindexed attempt table and takes SQLite's
write lock, which the tablets' saves wait for; a flood of made-up usernames adds a row each
try, so every try scanned more. The lockout does not need the sweep (it counts only
attempts inside the cool-off), so sweeping once a minute changes no lockout.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# One login hashing, one waiting for it; further logins at the same moment are refused.
LOGINS_IN_FLIGHT = 2
# How long a login waits for the one before it (a check takes well under this when the
# server is not flooded).
WAIT_SECONDS = 3.0


class LoginBusy(ValidationError):
    """Raised out of ``authenticate()`` while the password checks are taken: the login form
    turns it into its error message, and nothing counts it as a wrong password."""

    def __init__(self) -> None:
        super().__init__(_("ログインが混み合っています。数秒待ってからもう一度ログインしてください。"),
                         code="login_busy")


_in_flight = threading.BoundedSemaphore(LOGINS_IN_FLIGHT)
_hashing = threading.Lock()

SWEEP_EVERY_SECONDS = 60.0
_clock = time.monotonic
_sweep_lock = threading.Lock()
_last_sweep: list[float] = []  # when this process last swept (empty: not yet)


class SweepingAxesHandler(AxesDatabaseHandler):
    """django-axes' database handler (AXES_HANDLER), deleting expired attempts at most once
    every ``SWEEP_EVERY_SECONDS`` in a process instead of before every failed login."""

    def clean_expired_user_attempts(self, request: Any = None, credentials: Any = None) -> int:
        now = _clock()
        with _sweep_lock:
            if _last_sweep and now - _last_sweep[0] < SWEEP_EVERY_SECONDS:
                return 0
            _last_sweep[:] = [now]
        return int(super().clean_expired_user_attempts(request, credentials))


class OnePasswordAtATimeBackend(ModelBackend):
    """Same users, passwords and permissions as ModelBackend; ``authenticate`` checks one
    password at a time."""

    def authenticate(self, request: Any, username: Any = None, password: Any = None,
                     **kwargs: Any) -> Any:
        if not _in_flight.acquire(blocking=False):
            raise LoginBusy()
        try:
            if not _hashing.acquire(timeout=WAIT_SECONDS):
                raise LoginBusy()
            try:
                return super().authenticate(request, username=username, password=password,
                                            **kwargs)
            finally:
                _hashing.release()
        finally:
            _in_flight.release()
