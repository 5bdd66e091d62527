"""Role-matrix entries for the rule-set pages (#17). Merged into
``tests/test_role_matrix.MATRIX``; the rule set comes from ``tests.matrix_world``."""

from __future__ import annotations

from typing import Any

from tests.rounds.matrix import ORGANISER


def _ruleset(w: dict[str, Any]) -> dict[str, Any]:
    return {"slug": w["tournament"].slug, "ruleset_id": w["ruleset"].pk}


def rulesets_matrix() -> dict[str, Any]:
    from tests.test_role_matrix import Entry

    return {
        "rulesets": Entry(ORGANISER),
        "ruleset_start": Entry(ORGANISER, method="POST", data=lambda w: {"preset": "shop-top2"}),
        "ruleset_start_empty": Entry(ORGANISER, method="POST",
                                     data=lambda w: {"name": "空から", "shape": "rounds"}),
        "ruleset_import": Entry(ORGANISER, method="POST"),
        "ruleset_clone": Entry(ORGANISER, method="POST"),
        "ruleset_edit": Entry(ORGANISER, kwargs=_ruleset),
        "ruleset_export": Entry(ORGANISER, kwargs=_ruleset),
        "ruleset_apply": Entry(ORGANISER, method="POST", kwargs=_ruleset),
        "ruleset_rehearsal": Entry(ORGANISER, kwargs=_ruleset),
        "ruleset_rule_page": Entry(ORGANISER, kwargs=_ruleset),
    }
