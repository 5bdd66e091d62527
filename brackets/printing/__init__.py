"""Printed documents (reportlab), one module per document, all on :mod:`.base`.

Every document is registered in :mod:`.registry` under a stable slug and served by the one
download view; see ``docs/tournament-file.md`` for the whole-tournament file.
"""
