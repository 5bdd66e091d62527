"""The speed machinery a venue-scale benchmark keeps, behind one boundary.

The domain modules (services, selectors, views) call these only through their names here:
``lean`` (the hot path's SQL built once), ``page_cache`` and ``revision`` (pages cached by
the tournament's revision, which moves in the same transaction as every write) and
``auth_backend`` (the login lookup in one query). ``bench/`` measures what each buys; a layer no benchmark needs goes.
"""
