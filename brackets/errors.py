"""The one base class of every refusal the web layer shows to staff.

A service, exporter or document refuses a request by raising a subclass of
:class:`Refused` whose ``message`` says, in the staff's language, what to fix; nothing was
changed. Subclasses add what their own pages need (a form field, the changes of a stale
save, the buzzer log's length). An engine bug is not a refusal: it is logged and shown as
an internal error (``brackets.messages.error_text``).
"""

from __future__ import annotations


class Refused(Exception):
    """A request refused for staff; ``message`` is shown to them as is."""

    message: str

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DocumentError(Refused):
    """A document or export that cannot be made yet (no such round, round not drawn yet):
    raised by the documents and by the selectors that feed them."""
