"""Trial layers driven through the play scene: keys and buttons, colours, a trial gone wrong,
hints and checks inside trials, saving and reopening, and the rewind of the player's play."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import rules  # noqa: E402
from game.puzzle import Cell  # noqa: E402
from solvers.engine import trace  # noqa: E402
from tests.test_ui_coach import SHIPS, outlined, wait_for_answer  # noqa: E402
from tests.test_ui_play import cell_center, click, colours_in, press  # noqa: E402
from window.app import DEFAULT_LEVEL  # noqa: E402
from window.storage import runs_dir  # noqa: E402

pytest.importorskip("solvers.logic")


def ship_click(app, r, c):
    """Two left clicks: water, then ship (one step each, as a player makes them)."""
    click(app, cell_center(app, r, c))
    click(app, cell_center(app, r, c))


def water_click(app, r, c):
    click(app, cell_center(app, r, c))


def piece_colours(app, r, c):
    app.draw()
    return colours_in(app.screen, app.play.layout.cell_rect(r, c).inflate(-6, -6))


def test_g_opens_trials_three_deep_each_drawn_in_its_own_colour(app):
    session, theme = app.play.session, app.theme
    ship_click(app, 0, 0)                                   # committed
    press(app, pygame.K_g)
    assert session.depth == 1 and "Trial 1 opened" in app.play.status.message
    ship_click(app, 2, 2)
    click(app, next(b for b in app.play.toolbar if b.label == "Trial").rect.center)   # the toolbar button
    assert session.depth == 2
    ship_click(app, 2, 5)
    press(app, pygame.K_g)
    assert session.depth == 3
    water_click(app, 4, 4)
    assert session.layer_depths() == {(2, 2): 1, (2, 5): 2, (4, 4): 3}
    colours = [theme.trial_colour(depth) for depth in (1, 2, 3)]
    assert len(set(colours)) == 3
    assert theme.ship in piece_colours(app, 0, 0) and not set(colours) & piece_colours(app, 0, 0)
    assert colours[0] in piece_colours(app, 2, 2) and colours[1] in piece_colours(app, 2, 5)
    assert colours[2] in piece_colours(app, 4, 4)          # trial water: the waves take its colour
    # The depth shows beside the colour: the status line's chip, and the board's frame.
    status = app.play.layout.status
    assert colours[2] in colours_in(app.screen, status)
    frame = app.play.layout.board.inflate(8, 8)
    assert app.screen.get_at((frame.x + 1, frame.centery))[:3] == colours[2]


def test_a_trial_s_water_carries_no_dot_as_given_water_does(app):
    # The dot under the waves is the sign of given water ("your own marks are told from them by
    # shape"): a trial's water was drawn with it, as if given, in the trial's colour.
    press(app, pygame.K_g)
    water_click(app, 4, 4)
    assert app.play.session.layer_depths() == {(4, 4): 1}
    app.draw()
    rect = app.play.layout.cell_rect(4, 4)
    dot = (rect.x + rect.width // 2, rect.y + int(rect.height * 0.77))
    assert tuple(app.screen.get_at(dot))[:3] == app.theme.water
    assert app.theme.trial_colour(1) in piece_colours(app, 4, 4)            # its waves take the trial's colour


def test_abandon_and_keep_by_keys_and_by_the_status_line_buttons(app):
    session = app.play.session
    press(app, pygame.K_g)
    ship_click(app, 2, 2)
    press(app, pygame.K_g)
    ship_click(app, 2, 5)
    water_click(app, 4, 4)
    before = session.cursor
    press(app, pygame.K_a)                                  # every mark of trial 2 at once
    assert session.depth == 1 and session.cursor == before + 1
    assert session.grid[2][5] == Cell.UNKNOWN and session.grid[4][4] == Cell.UNKNOWN
    assert "2 marks removed" in app.play.status.message
    press(app, pygame.K_z, pygame.KMOD_CTRL)                # undo brings the trial back
    assert session.depth == 2 and session.grid[2][5] == Cell.SHIP
    app.draw()
    keep, abandon = app.play.trials.buttons
    assert app.play.layout.status.contains(keep.rect) and app.play.layout.status.contains(abandon.rect)
    click(app, keep.rect.center)
    assert session.depth == 1 and session.layer_depths() == {(2, 2): 1, (2, 5): 1, (4, 4): 1}
    click(app, abandon.rect.center)
    assert session.depth == 0 and session.grid == session.start
    press(app, pygame.K_a)
    assert session.depth == 0 and "No trial is open" in app.play.status.message


def test_a_trial_that_breaks_a_rule_is_named_and_abandon_is_offered(app):
    session = app.play.session
    ship_click(app, 0, 0)
    press(app, pygame.K_g)
    ship_click(app, 4, 3)                                   # row 5 has no ship: the judge proves it
    assert "Trial 1 breaks a rule" in app.play.status.message
    assert app.play.trials.abandon_button.active
    press(app, pygame.K_a)
    assert session.depth == 0 and session.grid[4][3] == Cell.UNKNOWN and session.grid[0][0] == Cell.SHIP
    assert not app.play.trials.abandon_button.active


def test_a_broken_trial_s_count_is_said_again_when_it_changes_not_left_out_of_date(app):
    press(app, pygame.K_g)
    ship_click(app, 2, 4)                                   # column 5 (tally 1) has the given submarine
    assert app.play.status.message.startswith("Trial 1 breaks a rule: Column 5 has 2 ship cells")
    ship_click(app, 3, 4)
    assert app.play.status.message.startswith("Trial 1 breaks a rule: Column 5 has 3 ship cells")
    press(app, pygame.K_h)                                  # another message stays while nothing changes
    hint = app.play.status.message
    water_click(app, 5, 5)
    app.pump()
    assert app.play.status.message == hint


def test_check_inside_a_trial_blames_the_trial_that_contradicts_the_clues(app):
    session = app.play.session
    ship_click(app, 0, 0)
    press(app, pygame.K_g)
    water_click(app, 1, 0)                                  # right
    press(app, pygame.K_g)
    ship_click(app, 5, 5)                                   # wrong, though no rule is broken yet
    assert not rules.provable_violations(app.play.puzzle, session.grid)
    press(app, pygame.K_c)
    wait_for_answer(app)
    assert "trial 2 is wrong" in app.play.status.message and outlined(app) == {(5, 5)}
    assert app.play.trials.abandon_button.active and not app.play.coach.offering_undo
    press(app, pygame.K_h)                                  # a hint cannot help in there
    wait_for_answer(app)
    assert "cannot help inside a wrong trial" in app.play.status.message
    press(app, pygame.K_a)
    assert session.depth == 1 and session.grid[5][5] == Cell.UNKNOWN and session.grid[1][0] == Cell.WATER


def test_a_hint_inside_a_trial_speaks_about_the_board_outside_it(app):
    session = app.play.session
    press(app, pygame.K_g)
    for r, c in [(1, 0), (1, 2), (1, 3), (1, 4), (1, 5)]:   # all right, all in the trial
        water_click(app, r, c)
    press(app, pygame.K_h)
    wait_for_answer(app)
    answer = app.play.coach.hints.answer
    assert answer.deduction is not None and app.play.status.message.startswith("Outside your trial")
    # The step is one the committed board (no marks yet) allows: found on the start board.
    assert all(session.start[m.row][m.col] == Cell.UNKNOWN for m in answer.deduction.moves)
    press(app, pygame.K_h)
    assert app.play.status.message.startswith("Outside your trial: ")
    press(app, pygame.K_h)
    assert "in trial 1" in app.play.status.message
    applied = {(m.row, m.col) for m in answer.deduction.moves}
    assert all(session.grid[r][c] == (Cell.SHIP if (r, c) in SHIPS else Cell.WATER) for r, c in applied)


def test_a_saved_game_reopens_with_its_trials(app):
    ship_click(app, 0, 0)
    press(app, pygame.K_g)
    ship_click(app, 2, 2)
    press(app, pygame.K_g)
    water_click(app, 4, 4)
    before = app.play.session
    grid, layers, cursor = before.grid, before.layer_depths(), before.cursor
    assert app.open_level(DEFAULT_LEVEL)                    # the old scene saves as it closes
    app.pump()
    session = app.play.session
    assert session is not before and session.grid == grid and session.cursor == cursor
    assert session.depth == 2 and session.layer_depths() == layers
    assert app.play.status.message == "Progress restored"
    press(app, pygame.K_a)
    press(app, pygame.K_a)
    assert session.grid[2][2] == Cell.UNKNOWN and session.grid[0][0] == Cell.SHIP


def test_restart_closes_the_trials_and_undo_reopens_them(app):
    session = app.play.session
    press(app, pygame.K_g)
    ship_click(app, 2, 2)
    press(app, pygame.K_r)
    assert session.depth == 0 and session.grid == session.start
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert session.depth == 1 and session.layer_depths() == {(2, 2): 1}


def test_undoing_a_kept_abandoned_or_restarted_trial_says_what_is_in_force_now(app):
    # The status line said "Trial 2 abandoned" or "Restarted": after Ctrl+Z it no longer says
    # what the board no longer shows.
    status = app.play.status
    press(app, pygame.K_g)
    ship_click(app, 2, 2)
    press(app, pygame.K_g)
    water_click(app, 4, 4)
    press(app, pygame.K_a)
    assert "Trial 2 abandoned" in status.message
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert status.message == "Undone: abandon trial 2 (trial 2 open)"
    press(app, pygame.K_y, pygame.KMOD_CTRL)
    assert status.message == "Redone: abandon trial 2 (trial 1 open)"
    press(app, pygame.K_k)
    assert "Trial 1 kept" in status.message
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert status.message == "Undone: keep trial 1 (trial 1 open)"
    press(app, pygame.K_r)
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert status.message == "Undone: restart (trial 1 open)"
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert status.message == "Undone: abandon trial 2 (trial 2 open)"
    press(app, pygame.K_z, pygame.KMOD_CTRL)                    # a plain mark's undo says nothing new
    assert status.message == "Undone: abandon trial 2 (trial 2 open)" and app.play.session.depth == 2
    assert app.play.session.grid[4][4] == Cell.UNKNOWN


def test_the_rewind_of_the_players_play_shows_each_moves_trial_depth(app):
    ship_click(app, 0, 0)
    press(app, pygame.K_g)
    ship_click(app, 2, 2)
    press(app, pygame.K_g)
    water_click(app, 4, 4)
    press(app, pygame.K_a)
    press(app, pygame.K_t)
    scene = app.overlay
    assert scene.run.solver == "player" and scene.board() == app.play.session.grid
    scene.goto(5)
    assert scene.timeline.depths[5] == 2
    app.draw()                                              # the panel names the depth "trials open"
    lines = (runs_dir() / "last-play.jsonl").read_text().splitlines()[1:-1]
    events = [(e["kind"], e["cells"][0]["row"], e["cells"][0]["col"], e["depth"], e["detail"])
              for e in map(trace.json.loads, lines)]
    assert events == [("move", 0, 0, 0, ""), ("move", 0, 0, 0, ""), ("move", 2, 2, 1, ""), ("move", 2, 2, 1, ""),
                      ("move", 4, 4, 2, ""), ("move", 4, 4, 1, "abandon trial 2")]


def test_a_saved_trial_step_edited_by_hand_is_set_aside_and_said_not_saved_over(app):
    """A play whose abandon lists cells it does not put back opens fresh, says so, and the
    player's file is kept beside the new one instead of being replaced by it."""
    import json

    from window.storage import level_key

    puzzle = app.play.puzzle
    free = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if (r, c) not in puzzle.hints][:2]
    (r0, c0), (r1, c1) = free
    data = {"history": [{"label": "open", "moves": [], "trial": "open"},
                        {"label": "mark", "moves": [f"r{r0}c{c0}=#"]},
                        {"label": "abandon", "moves": [f"r{r1}c{c1}=."], "trial": "abandon"}],
            "cursor": 3, "elapsed": 1.0, "solved": False}
    path = app.storage.progress_path(level_key(puzzle))
    app.play.close()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    assert app.open_level(DEFAULT_LEVEL)
    assert app.play.board.session.cursor == 0 and "step 3 (abandon) does not fit" in app.play.status.message
    kept = [p for p in path.parent.iterdir() if p.name.startswith(path.stem) and p != path]
    assert len(kept) == 1 and json.loads(kept[0].read_text()) == data


@pytest.mark.parametrize("size", [(480, 360), (640, 480), (1100, 720)])
@pytest.mark.parametrize("solved", [False, True])
def test_the_status_line_keeps_a_trial_s_controls_whole_in_a_narrow_window(app, monkeypatch, size, solved):
    from tests.conftest import resize, watch_text

    resize(app, size)
    if solved:
        for r, c in SHIPS - set(app.play.puzzle.hints):
            click(app, cell_center(app, r, c), button=3)
        assert app.play.session.solved
    press(app, pygame.K_g)
    ship_click(app, 5, 5)
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    bar = app.play.layout.status
    buttons = [button.rect for button in app.play.trials.buttons]
    parts = buttons + [rect for text, rect in drawn if rect.colliderect(bar) and not rect.collidelistall(buttons)]
    assert all(bar.contains(rect) for rect in parts)
    assert not [(a, b) for n, a in enumerate(parts) for b in parts[n + 1:] if a.colliderect(b)]
    assert any(text.startswith("Trial 1") and rect.colliderect(bar) for text, rect in drawn)
    message = [text for text, rect in drawn if rect.colliderect(bar) and rect.x < bar.x + 20]
    if not (solved and size[0] < 640):                             # there "SOLVED" takes the message's room
        assert message and message[0] != "..."                     # the message keeps a word or more
