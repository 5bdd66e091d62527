"""The hosted public copy (docs/public-copy.md).

A venue server given ``KYUSHU_PUBLIC_COPY_URL`` and ``KYUSHU_PUBLIC_COPY_TOKEN`` pushes each
tournament's public state to a hosted copy of the app after every change
(:mod:`.pusher`, timing in :mod:`.schedule`, the body in :mod:`.payload`). A server run with
``KYUSHU_PUBLIC_COPY_MODE=1`` is such a copy: it takes pushes (:mod:`.receive`,
:mod:`.views`) and serves only the public pages (:mod:`.middleware`), so phones on mobile
data never reach the venue's laptop.
"""
