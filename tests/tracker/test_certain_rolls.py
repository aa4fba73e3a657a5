"""Lonely Star's certain rolls are stated the way the engine decides them: "always succeeds" only where the
engine's check succeeds with no die, "cannot succeed" only where it fails with no die, and a die field
wherever a die decides (a unit at Luck 0 once read "the crit always succeeds", then failed)."""

import pytest

from rules.dice import Dice
from rules.lonely_star.rolls import check
from tracker.games.lonely_star.board import certain_roll
from tracker.matches import services

from .test_lonely_star_pages import act_url, start, text

KINDS = ("crit", "resist", "luck")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("value", range(-2, 10))
def test_every_certain_text_says_what_the_engine_does(kind, value):
    said = certain_roll(kind, value)
    result = check(Dice("seed", 1), value, kind, "Unit")
    if result["roll"] is not None:
        assert said == ""
    elif result["success"]:
        assert "always succeeds" in said and "cannot" not in said
    else:
        assert "cannot succeed" in said and "always" not in said


def _unit(name, lk, rs):
    return {"name": name, "hp": 5, "at": 1, "lk": lk, "rs": rs, "reach": 1}


@pytest.mark.django_db
def test_the_page_and_the_attack_agree_on_a_certain_crit(client):
    match = start()
    for seat, card in ((0, _unit("Zero Star", 0, 0)), (1, _unit("Six Star", 6, 6))):
        services.match_apply_action(match_id=match.pk, expected_seq=match.head,
                                    action={"type": "play_unit", "seat": seat, "card": card})
        match.refresh_from_db()
    page = text(client.get(match.get_absolute_url()))
    assert "Luck 0: the crit cannot succeed" in page
    assert "always succeeds" not in page.split("Zero Star", 1)[1].split("Six Star", 1)[0]

    response = client.post(act_url(match), {"seq": match.head, "action": "attack",
                                             "unit": match.state["units"][0]["id"],
                                             "target": match.state["units"][1]["id"]})
    assert response.status_code == 302
    match.refresh_from_db()
    crit = next(event for event in match.actions.get(seq=match.head).events if event["type"] == "crit_check")
    assert crit["certain"] and not crit["success"]
