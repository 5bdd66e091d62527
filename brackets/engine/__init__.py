"""The rules of QMA tournaments and live buzzer-quiz rounds, as a pure package.

Standard library only: no Django, no ORM. Plain typed data in, plain data out. The web
app (``brackets.services`` / ``brackets.selectors``) is the only adapter to the database.
"""
