"""The speed machinery a venue-scale benchmark keeps, behind one boundary.

The domain modules (services, selectors, views) call these only through their names here:
``page_cache`` and ``revision`` (pages cached by the tournament's revision, which moves in
the same transaction as every write), ``fragments`` (parts of a page, and rows of a table,
kept under what they show, so a page rebuilt after a save renders only what changed) and
``compression`` (gzip for HTML and JSON).
``bench/`` measures what each buys; a layer no benchmark needs goes (the hand-built SQL of
the hot paths went: bench/pages.py measured it at ~1 ms a staff request, ~1 % of a core at
a venue's pace).
"""
