"""Facts the staff enter, and the catalog they choose from.

One module per area; everything is re-exported here so ``from brackets.models import X``
works everywhere. Models hold fields, constraints and ``__str__``; rules live in
``brackets.engine`` and writes in ``brackets.services``.
"""

from brackets.models.announcements import Announcement, TimetableEntry
from brackets.models.buzzer import (
    BuzzerEvent,
    BuzzerPlayer,
    BuzzerQuestionFile,
    BuzzerRound,
    BuzzerSettingsChange,
    PaperMarking,
)
from brackets.models.catalog import (
    Difficulty,
    Format,
    FormatGroup,
    Genre,
    QmaVersion,
    Rank,
    SubGenre,
)
from brackets.models.corrections import (
    AchievementCorrection,
    BerthWithdrawal,
    EntrantPlayerChange,
    PlayerRename,
)
from brackets.models.entrants import Entrant, EntrantImport, EntrantRevision
from brackets.models.floor import CabinetSet, FloorFact
from brackets.models.players import (
    Achievement,
    BerthOverride,
    DutyOverride,
    GameVersion,
    Player,
    PlayerCard,
    PlayerLink,
    PlayerLinkDecision,
    PlayerMerge,
)
from brackets.models.preset_settings import PresetSettingChange
from brackets.models.public_copy import PublicCopyPush, PublicCopyReceipt
from brackets.models.rounds import (
    ConfirmationFact,
    DisqualificationFact,
    Group,
    PenaltyFact,
    RematchFact,
    ResultFact,
    Round,
    RoundStep,
    Seat,
    SelectionFact,
    SpecialFact,
    Submission,
)
from brackets.models.rulesets import RuleSetDoc, RuleSetVersion
from brackets.models.series import Series, SeriesBerthGrant
from brackets.models.tournament import Membership, Role, Tournament

__all__ = [
    "RuleSetDoc",
    "RuleSetVersion",
    "Achievement",
    "BerthOverride",
    "AchievementCorrection",
    "BerthWithdrawal",
    "EntrantPlayerChange",
    "PlayerRename",
    "DutyOverride",
    "GameVersion",
    "Player",
    "PlayerCard",
    "PlayerLink",
    "PlayerLinkDecision",
    "PlayerMerge",
    "Announcement",
    "TimetableEntry",
    "BuzzerEvent",
    "CabinetSet",
    "FloorFact",
    "BuzzerPlayer",
    "BuzzerQuestionFile",
    "BuzzerRound",
    "BuzzerSettingsChange",
    "PaperMarking",
    "ConfirmationFact",
    "DisqualificationFact",
    "Group",
    "PenaltyFact",
    "PresetSettingChange",
    "PublicCopyPush",
    "PublicCopyReceipt",
    "RematchFact",
    "ResultFact",
    "Round",
    "RoundStep",
    "Seat",
    "SelectionFact",
    "SpecialFact",
    "Submission",
    "Difficulty",
    "Entrant",
    "EntrantImport",
    "EntrantRevision",
    "Format",
    "FormatGroup",
    "Genre",
    "Membership",
    "QmaVersion",
    "Rank",
    "Role",
    "SubGenre",
    "Tournament",
    "Series",
    "SeriesBerthGrant",
]
