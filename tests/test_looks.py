"""Drawing only what changed: a part is drawn again when its look's key changes or it was forgotten."""

from window.looks import Looks


def test_a_part_is_drawn_again_only_when_its_look_changes():
    looks = Looks()
    assert looks.changed("board", 1)
    assert not looks.changed("board", 1)
    assert looks.changed("board", 2)
    assert looks.renders["board"] == 2 and looks.renders["panel"] == 0


def test_forgotten_and_dropped_parts_are_drawn_again():
    looks = Looks()
    for part in ("scene", "board", "panel"):
        looks.changed(part, 0)
    looks.drop("panel")
    assert looks.changed("panel", 0) and not looks.changed("board", 0)
    looks.forget("scene")
    assert not looks.changed("scene", 0)
    assert looks.changed("board", 0) and looks.changed("panel", 0)
