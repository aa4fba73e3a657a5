"""Each game's web side: its forms, templates and page context.

The engine in rules/ decides; the adapter here turns form posts into actions and
states into what a page shows. `adapter(slug)` finds a game's adapter.
"""

from types import ModuleType

from . import card_crush

ADAPTERS: dict[str, ModuleType] = {"card-crush": card_crush}


def adapter(slug: str) -> ModuleType:
    return ADAPTERS[slug]
