"""The competition settings: rules/card_crush defaults, overridden by settings.CARD_CRUSH_COMPETITION.

    CARD_CRUSH_COMPETITION = {
        "K": 32,                    # open-play K
        "TOURNAMENT_WEIGHT": 1.5,   # K multiplier for tournament battles
        "UPGRADE_DUPLICATES": {"Common": [2, 4, 8, 16], ...},  # per level, by rarity
        "UPGRADE_GAINS": {"power": 1, "speed": 1},
        "MAX_LEVEL": 5,
    }
"""

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from rules import RuleError
from rules.card_crush import collection, rating

KEYS = {"K", "TOURNAMENT_WEIGHT", "UPGRADE_DUPLICATES", "UPGRADE_GAINS", "MAX_LEVEL"}


def _overrides() -> dict:
    overrides = getattr(settings, "CARD_CRUSH_COMPETITION", {}) or {}
    unknown = set(overrides) - KEYS
    if unknown:
        raise ImproperlyConfigured(f"CARD_CRUSH_COMPETITION has unknown keys: {', '.join(sorted(unknown))}")
    return overrides


def rating_rules() -> rating.RatingRules:
    overrides = _overrides()
    rules = rating.RatingRules(k=overrides.get("K", rating.DEFAULT_K),
                               tournament_weight=overrides.get("TOURNAMENT_WEIGHT", rating.DEFAULT_TOURNAMENT_WEIGHT))
    for name, value in (("K", rules.k), ("TOURNAMENT_WEIGHT", rules.tournament_weight)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise ImproperlyConfigured(f"CARD_CRUSH_COMPETITION[{name!r}] must be a positive number, not {value!r}")
    return rules


def upgrade_rules() -> collection.UpgradeRules:
    overrides = _overrides()
    try:
        return collection.UpgradeRules(
            duplicates=overrides.get("UPGRADE_DUPLICATES", dict(collection.DEFAULT_DUPLICATES)),
            gains=overrides.get("UPGRADE_GAINS", dict(collection.DEFAULT_GAINS)),
            max_level=overrides.get("MAX_LEVEL", collection.DEFAULT_MAX_LEVEL),
        )
    except RuleError as error:
        raise ImproperlyConfigured(f"CARD_CRUSH_COMPETITION: {error}") from error
