"""Submit keys: what a form's idempotency key is compared by.

A page sends a fresh key with each form; the key is stored with the write it made. The
same key arriving again is either the same tap sent twice (a double tap, a flaky tablet
resending), which is recorded once, or the form sent again from a page loaded before the
first save, changed, which must be refused as stale rather than reported as saved. The
digest of what was submitted, stored beside the key, tells the two apart.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from brackets.engine import bounds

#: The longest submit key the database keeps (``Submission.key``, ``BuzzerEvent``).
KEY_MAX_LENGTH = bounds.SUBMIT_KEY.max_length


def content_digest(kind: str, content: Any) -> str:
    """A digest of what one submit carries (its kind and values, not its key or version):
    two submits with one key are the same tap exactly when their digests are equal."""
    text = json.dumps([kind, content], sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()
