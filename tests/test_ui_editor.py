"""The level editor scene, driven by real pygame events: paint, give, verdict, undo, save, play."""

import os
import shutil
import time
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import levels  # noqa: E402
from game.editor import Mode  # noqa: E402
from game.puzzle import Cell, Hint  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.test_ui_play import click, drag, press  # noqa: E402
from window.scenes.editor import EditorScene  # noqa: E402

SOLUTION = ("###...", "......", "#.#..#", "#.#...", "......", "#..#..")


def wait_for_verdict(app, scene, seconds=20.0):
    deadline = time.perf_counter() + seconds
    scene.quiet = 1.0
    while time.perf_counter() < deadline:
        app.pump()
        if scene.assessed == scene.draft.puzzle() and scene._run is None:
            return scene.assessment
        time.sleep(0.01)
    raise AssertionError("no verdict")


def test_e_opens_the_editor_on_the_current_level_and_design_takes_its_solution(app):
    press(app, pygame.K_e)
    scene = app.overlay
    assert isinstance(scene, EditorScene)
    puzzle = app.play.puzzle
    # the level stores no solution: its clues are there to edit as typed
    assert scene.draft.mode is Mode.TRANSCRIBE and scene.draft.puzzle() == puzzle.replace(source=None, difficulty=None)
    assessment = wait_for_verdict(app, scene)
    assert assessment.kind.value == "unique"
    click(app, scene.buttons["design"].rect.center)
    assert scene.draft.mode is Mode.DESIGN and scene.draft.layout == assessment.solution
    assert scene.draft.puzzle().hints == puzzle.hints
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None


def test_design_a_level_make_it_unique_save_and_play(app, tmp_path):
    app.open_editor(blank=True)
    scene = app.overlay
    press(app, pygame.K_e)                       # keys go to the editor, not the play scene
    for _ in range(4):
        click(app, scene.buttons["rows-"].rect.center)
        click(app, scene.buttons["cols-"].rect.center)
    assert (scene.draft.rows, scene.draft.cols) == (6, 6)
    for r, line in enumerate(SOLUTION):
        for c, ch in enumerate(line):
            if ch == "#":
                click(app, scene.cell_rect(r, c).center)
    assert scene.draft.fleet == ((3, 1), (2, 2), (1, 3)) and not scene.draft.problems()
    click(app, scene.cell_rect(0, 0).center, button=3)          # right click: a given cell
    assert scene.draft.hints == {(0, 0): Hint.LEFT}
    assert wait_for_verdict(app, scene).kind.value == "ambiguous"
    for _ in range(20):
        if scene.assessment.kind.value == "unique":
            break
        click(app, scene.buttons["unique"].rect.center)
        deadline = time.perf_counter() + 20
        while scene._run is not None and time.perf_counter() < deadline:
            app.pump()
            time.sleep(0.01)
        wait_for_verdict(app, scene)
    assert scene.assessment.kind.value == "unique" and scene.assessment.grade
    hints = len(scene.draft.hints)
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert len(scene.draft.hints) == hints - 1
    press(app, pygame.K_y, pygame.KMOD_CTRL)
    wait_for_verdict(app, scene)
    click(app, scene.text_rects["name"].center)
    for char in "Six":
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(char.lower()), mod=0, unicode=char, scancode=0))
    app.pump()
    wait_for_verdict(app, scene)
    click(app, scene.buttons["play"].rect.center)
    assert app.overlay is None and app.play.puzzle.name == "Six"
    saved = levels.load(app.play.path)
    assert saved == app.play.puzzle and saved.difficulty == scene.assessment.grade


def test_transcribe_shows_a_bad_tally_and_never_raises(app):
    app.open_editor(blank=True)
    scene = app.overlay
    click(app, scene.buttons["transcribe"].rect.center)
    assert scene.draft.mode is Mode.TRANSCRIBE
    click(app, scene.cell_rect(0, 0).center)                     # a given water
    assert scene.draft.hints == {(0, 0): Hint.WATER}
    click(app, scene.cell_rect(0, scene.draft.cols).center)      # row 1's tally
    for char in "99":
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(char), mod=0, unicode=char, scancode=0))
    app.pump()
    assert scene.draft.typed_rows[0] == 99
    assert any("more than its 10 cells" in p.text for p in scene.draft.problems())
    app.draw()                                                   # drawn, not raised
    click(app, scene.fleet_buttons[(4, 1)].rect.center)
    assert scene.draft.typed_fleet == ((4, 1),)
    assert scene.draft.layout[0][0] == Cell.WATER


@pytest.mark.parametrize("size", [(1100, 720), (640, 480)])
def test_a_long_verdict_is_read_whole_on_the_rows_left_free(app, monkeypatch, size):
    from tests.conftest import resize, watch_text

    resize(app, size)
    app.open_editor(blank=True)
    scene = app.overlay
    click(app, scene.buttons["transcribe"].rect.center)
    click(app, scene.cell_rect(1, scene.draft.cols).center)      # row 2's tally
    for char in "12":
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(char), mod=0, unicode=char, scancode=0))
    app.pump()
    said = "Not a level yet: " + scene.draft.problems()[0].text
    assert "more than its 10 cells" in said
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    verdict = scene.parts["verdict"]
    rows = [text for text, rect in sorted(drawn, key=lambda label: label[1].y) if verdict.contains(rect)]
    assert " ".join(rows) == said


def test_ctrl_p_exports_the_level_as_a_printable_page(app):
    press(app, pygame.K_p, pygame.KMOD_CTRL)
    path = app.play.message.rsplit(" ", 1)[-1]
    assert app.play.message.startswith("Printable sheet saved to")
    with open(path, "rb") as page:
        assert page.read(8) == b"\x89PNG\r\n\x1a\n"


def test_the_window_opens_a_level_in_a_published_text_format(app, tmp_path):
    from game import formats

    path = tmp_path / "assignment.txt"
    path.write_text(formats.write_assignment(app.play.puzzle))
    assert app.open_level(path)
    assert app.play.path == path and app.play.puzzle.row_tallies == formats.read(path)[0].row_tallies


def test_toolbar_buttons_open_the_editor_and_the_race(app):
    from window.scenes.race import RaceScene

    click(app, next(b for b in app.play.toolbar if b.label == "Edit").rect.center)
    assert isinstance(app.overlay, EditorScene)
    press(app, pygame.K_ESCAPE)
    click(app, next(b for b in app.play.toolbar if b.label == "Race").rect.center)
    assert isinstance(app.overlay, RaceScene)


def test_saving_another_level_of_the_same_name_and_size_keeps_the_first(app):
    app.open_editor()
    scene = app.overlay
    assert scene.draft.mode is Mode.TRANSCRIBE
    first = scene.save()
    kept = first.read_bytes()
    free = next((r, c) for r in range(6) for c in range(6) if (r, c) not in scene.draft.hints)
    click(app, scene.cell_rect(*free).center)                  # one more given cell: another level
    second = scene.save()
    assert second is not None and second != first and first.read_bytes() == kept
    assert levels.load(second).hints == scene.draft.puzzle().hints
    assert scene.save() == second and len(list(first.parent.glob("made-*.bs"))) == 2   # the same level: one file


def test_closing_the_editor_during_minimize_ends_its_worker_at_once(app, monkeypatch):
    from solvers.authoring import editing, generator

    def slow_pruning(puzzle, level, rng, deadline, cancelled, **rest):
        while not generator._stop(cancelled, deadline):          # a long pruning, asking as the real one does
            time.sleep(0.01)
        return puzzle

    monkeypatch.setattr(editing, "remove_hints", slow_pruning)
    app.open_editor()
    scene = app.overlay
    assert wait_for_verdict(app, scene).kind.value == "unique"
    click(app, scene.buttons["minimize"].rect.center)
    run = scene._run
    assert scene.busy and run is not None
    time.sleep(0.1)
    click(app, scene.buttons["close"].rect.center)
    assert app.overlay is None
    started = time.perf_counter()
    while run.running and time.perf_counter() - started < 3:
        time.sleep(0.01)
    assert not run.running and time.perf_counter() - started < 0.5


def test_redundant_hints_not_worked_out_in_time_are_said_so_in_words(app, monkeypatch):
    from window.scenes import editor as editor_scene

    monkeypatch.setattr(editor_scene, "REDUNDANT_SECONDS", 0.0)     # no time at all for them
    app.open_editor()
    scene = app.overlay
    assessment = wait_for_verdict(app, scene)
    assert assessment.kind.value == "unique" and assessment.grade and assessment.redundant is None
    lines, _ = scene.verdict_lines()
    assert lines[0].startswith("Verdict: unique, graded")
    assert lines[1] == "Hints that could go: not worked out within 0 s"
    app.draw()                                                   # drawn, not raised


def test_a_mouse_move_that_changes_nothing_draws_nothing(app, monkeypatch):
    from window.mini_board import MiniBoard

    app.open_editor()
    scene = app.overlay
    wait_for_verdict(app, scene)
    app.pump()
    boards = []
    original = MiniBoard.draw
    monkeypatch.setattr(MiniBoard, "draw", lambda self, *a, **k: (boards.append(a), original(self, *a, **k))[1])

    def move(pos):
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(0, 0, 0)))
        app.pump()

    for pos in (scene.cell_rect(0, 0).center, scene.cell_rect(2, 3).center, (scene.panel.x + 5, scene.panel.y + 300)):
        move(pos)
    assert boards == [] and scene.draw(app.screen, False) == []
    move(scene.buttons["save"].rect.center)                  # a button lights up: the panel alone is drawn
    assert scene.buttons["save"].hover and boards == []
    before = scene.draft
    click(app, scene.cell_rect(0, 0).center)                 # an edit: the board is drawn
    assert scene.draft != before and len(boards) == 1
    move(scene.cell_rect(1, 1).center)
    scene.draw(app.screen, False)
    whole = pygame.Surface(app.screen.get_size())            # drawn part by part, the screen is a whole drawing
    assert scene.draw(whole, True) is None
    assert pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(app.screen, "RGB")


def test_every_key_of_the_table_is_drawn_whole_at_the_foot_of_every_window(app, monkeypatch):
    from tests.conftest import resize, watch_text

    app.open_editor()
    scene = app.overlay
    drawn = watch_text(monkeypatch)
    wanted = scene.key_parts
    assert {"Ctrl+S: save", "Ctrl+Shift+S: save as", "Ctrl+P: print", "Esc: close"} <= set(wanted)
    for size in ((640, 480), (800, 600), (900, 615), (1100, 720), (1280, 860)):
        resize(app, size)
        drawn.clear()
        assert scene.draw(app.screen, True) is None
        window = pygame.Rect((0, 0), size)
        tallies = scene.cell_rect(scene.draft.rows, 0)                 # the row of column tallies under the board
        foot = [(content, rect) for content, rect in drawn if rect.top > tallies.bottom and rect.left < scene.panel.x]
        # inside the window, beside the panel, below the area a board's redraw paints over
        assert foot and all(window.contains(rect) and rect.right <= scene.panel.x
                            and rect.top >= tallies.bottom + 8 for _, rect in foot), size
        shown = "\n".join(content for content, _ in foot)
        assert [key for key in wanted if key not in shown] == [], size


def type_key(app, char):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(char), mod=0, unicode=char, scancode=0))
    app.pump()


def test_design_takes_the_verdicts_solution_only_for_the_board_it_was_found_for(app):
    app.open_editor()
    scene = app.overlay
    assert scene.draft.mode is Mode.TRANSCRIBE and wait_for_verdict(app, scene).solution is not None
    press(app, pygame.K_UP, pygame.KMOD_SHIFT)             # a row fewer: the solution is of the old board
    click(app, scene.buttons["design"].rect.center)
    assert scene.draft.mode is Mode.DESIGN and len(scene.draft.layout) == scene.draft.rows == 5
    assert all(Cell.SHIP not in row for row in scene.draft.layout)      # the board painted so far: none
    app.pump()
    app.draw()                                             # judged and drawn, not raised


def test_a_tally_being_typed_goes_with_its_row_or_out_of_transcribe(app):
    app.open_editor()
    scene = app.overlay
    typed = scene.draft.typed_rows
    click(app, scene.cell_rect(5, scene.draft.cols).center)              # row 6's tally
    assert scene.focus == ("row", 5)
    press(app, pygame.K_UP, pygame.KMOD_SHIFT)                           # row 6 goes
    assert scene.focus is None
    type_key(app, "7")                                                   # a key, not a tally typed
    assert scene.draft.typed_rows == typed[:5]
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    press(app, pygame.K_z, pygame.KMOD_CTRL)                             # back to six rows
    assert scene.draft.rows == 6
    scene.cursor = (5, 0)
    press(app, pygame.K_UP, pygame.KMOD_SHIFT)
    press(app, pygame.K_TAB)                                             # the cursor's row, on the board
    assert scene.focus == ("row", 4)
    click(app, scene.buttons["design"].rect.center)
    assert scene.focus is None                                           # design has no typed tallies
    edits = scene.editor.cursor
    type_key(app, "3")
    assert scene.editor.cursor == edits and scene.draft.typed_rows == typed[:5]


KEYS = [(pygame.K_UP, 0), (pygame.K_DOWN, 0), (pygame.K_LEFT, 0), (pygame.K_RIGHT, 0),
        (pygame.K_UP, pygame.KMOD_SHIFT), (pygame.K_DOWN, pygame.KMOD_SHIFT), (pygame.K_LEFT, pygame.KMOD_SHIFT),
        (pygame.K_RIGHT, pygame.KMOD_SHIFT), (pygame.K_SPACE, 0), (pygame.K_SPACE, pygame.KMOD_SHIFT),
        (pygame.K_TAB, 0), (pygame.K_RETURN, 0), (pygame.K_BACKSPACE, 0), (pygame.K_d, 0), (pygame.K_t, 0),
        (pygame.K_n, 0), (pygame.K_a, 0), (pygame.K_z, pygame.KMOD_CTRL), (pygame.K_y, pygame.KMOD_CTRL),
        (pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT), (pygame.K_ESCAPE, 0)] + \
    [(pygame.K_1 + k, mod) for k in range(9) for mod in (0, pygame.KMOD_SHIFT)]
BUTTONS = ["design", "transcribe", "rows-", "rows+", "cols-", "cols+", "undo", "redo", "save as"]


def test_any_clicks_and_keys_keep_the_editor_whole(app):
    """Clicks on cells, tallies, buttons and the fleet, keys and typed text in any order, with
    the verdict's answers arriving between them: nothing raises, a tally is typed only while
    it is on the board and transcribing, and the window draws."""
    any_session(app, 40)


@pytest.mark.slow
def test_any_clicks_and_keys_keep_the_editor_whole_long(app):
    any_session(app, 500)


def any_session(app, examples):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    actions = st.one_of(
        st.tuples(st.just("cell"), st.integers(0, 11), st.integers(0, 11), st.sampled_from((1, 3))),
        st.tuples(st.just("tally"), st.booleans(), st.integers(0, 11)),
        st.tuples(st.just("button"), st.sampled_from(BUTTONS)),
        st.tuples(st.just("fleet"), st.integers(1, 10), st.sampled_from((-1, 1))),
        st.tuples(st.just("key"), st.sampled_from(KEYS)),
        st.tuples(st.just("type"), st.sampled_from("0123456789?xQ é")),
        st.tuples(st.just("wait"), st.floats(0.0, 0.3)),
    )

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.booleans(), st.lists(actions, max_size=40))
    def session(blank, steps):
        app.overlay = None
        app.open_editor(blank=blank)
        scene = app.overlay
        for step in steps:
            if app.overlay is not scene:                   # Escape closed it
                break
            kind = step[0]
            if kind == "cell":
                click(app, scene.cell_rect(step[1] % scene.draft.rows, step[2] % scene.draft.cols).center, step[3])
            elif kind == "tally":
                r, c = (step[2] % scene.draft.rows, scene.draft.cols) if step[1] else \
                    (scene.draft.rows, step[2] % scene.draft.cols)
                click(app, scene.cell_rect(r, c).center)
            elif kind == "button":
                click(app, scene.buttons[step[1]].rect.center)
            elif kind == "fleet":
                shown = {length: rect for length, rect in scene.fleet_rows()}
                if scene.draft.mode is Mode.TRANSCRIBE and step[1] in shown:
                    scene._visible_buttons()
                    click(app, scene.fleet_buttons[(step[1], step[2])].rect.center)
            elif kind == "key":
                press(app, *step[1])
            elif kind == "type":
                type_key(app, step[1])
            else:
                deadline = time.perf_counter() + step[1]
                while time.perf_counter() < deadline:
                    app.pump(0.1)
                    time.sleep(0.01)
            draft = scene.draft
            assert len(draft.layout) == draft.rows and all(len(row) == draft.cols for row in draft.layout)
            if isinstance(scene.focus, tuple):
                assert draft.mode is Mode.TRANSCRIBE
                assert scene.focus[1] < (draft.rows if scene.focus[0] == "row" else draft.cols)
            assert (scene.puzzle is None) == bool(scene.problems)
            app.draw()
        scene.close()

    session()


def test_a_draft_left_unsaved_comes_back_one_undo_from_the_level(app):
    """Escape, Close or the window's close keep an unsaved draft; the next opening on the same
    level shows it, one undo away from the level as it is; a draft undone to the level, or
    saved, is not kept."""
    press(app, pygame.K_e)
    scene = app.overlay
    opened = scene.draft
    for char in "my draft":                                  # typed into the name
        scene.edit(replace(scene.draft, name=scene.draft.name + char))
    edited = scene.draft
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None
    press(app, pygame.K_e)
    scene = app.overlay
    assert scene.draft == edited and "draft is back" in scene.status
    click(app, scene.buttons["undo"].rect.center)
    assert scene.draft == opened
    click(app, scene.buttons["close"].rect.center)
    press(app, pygame.K_e)
    assert app.overlay.draft == opened                       # undone to the level: nothing kept
    app.overlay.edit(edited)
    app.shutdown()                                           # the window closed with the editor open
    from window.app import DEFAULT_LEVEL, App

    again = App(window=(1100, 720))
    assert again.open_level(DEFAULT_LEVEL)
    again.open_editor()
    assert again.overlay.draft == edited
    again.overlay.close()
    again.overlay = None
    blank = EditorScene(again, None)                         # a blank board keeps its own draft
    assert blank.draft != edited and blank.editor.cursor == 0
    again.shutdown()


def test_a_damaged_kept_draft_is_set_aside_and_the_level_opens(app):
    press(app, pygame.K_e)
    path = app.storage.draft_path(app.overlay.key)
    press(app, pygame.K_ESCAPE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"rows": 3}', encoding="utf-8")
    press(app, pygame.K_e)
    assert app.overlay.editor.cursor == 0 and not path.exists()
    assert any(p.name.startswith(path.stem) for p in path.parent.iterdir())   # kept aside, not deleted
    app.pump()
    assert "damaged draft" in app.play.status.message


def test_a_draft_of_a_level_with_a_long_odd_name_is_kept_whole(app, tmp_path):
    from window.storage import level_key

    level = levels.load(ROOT / "levels" / "6x6" / "easy" / "01.bs").replace(name="tab\there " + "x" * 5000)
    scene = EditorScene(app, level)
    scene.edit(replace(scene.draft, author="me"))
    edited = scene.draft
    scene.close()
    assert app.storage.kept_draft(level_key(level)) == edited


def test_a_draft_is_kept_as_it_is_edited_so_a_killed_window_loses_it_not(app):
    """The draft is written a quarter of a second after an edit, not only at the close: a
    window killed mid-edit (no close) leaves it for the next opening; a save drops it at once."""
    from window.storage import Storage

    press(app, pygame.K_e)
    scene = app.overlay
    scene.edit(replace(scene.draft, name="mid-edit"))
    edited = scene.draft
    scene.quiet = 1.0
    app.pump()
    on_disk = Storage(app.storage.root)                      # what a new window, after a kill, reads
    assert on_disk.kept_draft(scene.key) == edited
    assert scene.save() is not None
    assert Storage(app.storage.root).kept_draft(scene.key) is None       # saved: nothing to bring back
    scene.edit(replace(scene.draft, author="someone"))
    scene.quiet = 1.0
    app.pump()
    assert Storage(app.storage.root).kept_draft(scene.key) == scene.draft
    scene.undo()                                             # back to the level as saved
    scene.quiet = 1.0
    app.pump()
    assert Storage(app.storage.root).kept_draft(scene.key) is None


def test_a_drag_paints_every_cell_it_crosses_as_one_edit(app):
    """A quick drag reports cells apart: the cells between are painted too, and the whole drag
    is one step of the history (one undo), as a click is."""
    app.open_editor(blank=True)
    scene = app.overlay
    opened = scene.draft
    drag(app, scene.cell_rect(0, 0).center, [scene.cell_rect(0, 3).center, scene.cell_rect(0, 4).center])
    assert [scene.draft.layout[0][c] for c in range(6)] == [Cell.SHIP] * 5 + [Cell.WATER]
    assert scene.editor.cursor == 1
    drag(app, scene.cell_rect(2, 0).center, [scene.cell_rect(2, 2).center])       # a second drag: its own step
    assert scene.editor.cursor == 2 and scene.draft.layout[2][:3] == (Cell.SHIP,) * 3
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.draft.layout[2][:3] == (Cell.WATER,) * 3 and scene.draft.layout[0][4] == Cell.SHIP
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.draft == opened


def test_a_path_in_the_editor_s_status_is_broken_where_a_path_breaks_never_given_a_space(app):
    # "Printable sheet saved to /.../generated-6x6-easy-6101-sheet.png" in two rows read
    # ".../generated-6x6-easy-6101- sh...": the rows left to a line were joined with a space.
    from window import fonts

    app.open_editor()
    scene = app.overlay
    path = "/home/someone/.local/share/battleships/generated/generated-6x6-easy-6101-sheet.png"
    width = scene.parts["verdict"].width
    rows = [text for text, _ in scene._verdict_rows(["Verdict: unique", f"Printable sheet saved to {path}"],
                                                    (0, 0, 0), width)]
    assert rows[0] == "Verdict: unique" and rows[1] == "Printable sheet saved to"
    assert path.startswith("".join(rows[2:]))                    # the path's own characters, in order
    assert all(fonts.font(17).size(fonts.fit_text(row, 17, width))[0] <= width for row in rows)


def test_make_unique_and_minimize_out_of_time_say_so_in_words(app, monkeypatch):
    from solvers.authoring import editing
    from solvers.engine.verdict import Kind, Verdict
    from window import fonts
    from window.scenes import editor as editor_scene

    app.open_editor()
    scene = app.overlay
    assert wait_for_verdict(app, scene).kind.value == "unique"
    monkeypatch.setattr(editor_scene, "MINIMIZE_SECONDS", 0.0)
    click(app, scene.buttons["minimize"].rect.center)
    wait_for_verdict(app, scene)
    assert scene.status == "Minimize: out of time at 0 s, press again for more"
    lines, _ = scene.verdict_lines()
    width = scene.parts["verdict"].width                    # each row read whole, the status too
    rows = scene._verdict_rows(lines, (0, 0, 0), width)
    assert len(lines) == 3 and rows[-1][0] == scene.status
    assert all(fonts.font(17).size(text)[0] <= width for text, _ in rows)
    monkeypatch.setattr(editing, "decide", lambda *args, **kw: Verdict(Kind.UNDECIDED, ()))
    click(app, scene.buttons["design"].rect.center)         # the verdict's solution as the layout
    click(app, scene.buttons["unique"].rect.center)
    deadline = time.perf_counter() + 10
    while (scene.busy or scene._run is not None) and time.perf_counter() < deadline:
        app.pump()
        time.sleep(0.01)
    assert "no other solution met within" in scene.status and "unique already" not in scene.status


def test_one_hint_that_could_go_is_said_in_the_singular(app):
    from solvers.authoring.editing import Assessment
    from solvers.engine.verdict import Kind

    app.open_editor()
    scene = app.overlay
    scene.assessed, scene.assessment = scene.puzzle, Assessment(Kind.UNIQUE, "easy", ((1, 1),))
    assert scene.verdict_lines()[0][1] == "1 hint could go (outlined, marked -)"
    scene.assessment = Assessment(Kind.UNIQUE, "easy", ((1, 1), (2, 0)))
    assert scene.verdict_lines()[0][1] == "2 hints could go (outlined, marked -)"


def test_the_keyboard_types_every_tally_rows_then_columns(app):
    """Tab from the cursor's row tally goes down the rows, then along the columns: a level is
    transcribed from the keyboard alone, its column tallies too."""
    app.open_editor(blank=True)
    scene = app.overlay
    press(app, pygame.K_t)
    for _ in range(4):
        press(app, pygame.K_UP, pygame.KMOD_SHIFT)
        press(app, pygame.K_LEFT, pygame.KMOD_SHIFT)
    assert (scene.draft.rows, scene.draft.cols) == (6, 6)
    press(app, pygame.K_TAB)
    for digit in "123456" + "654321":
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="\b", scancode=0))
        type_key(app, digit)
        press(app, pygame.K_TAB)
    assert scene.draft.typed_rows == (1, 2, 3, 4, 5, 6) and scene.draft.typed_cols == (6, 5, 4, 3, 2, 1)
    assert scene.focus == ("row", 0)


def test_a_draft_folder_that_cannot_be_written_is_said_once_not_after_every_edit(app):
    press(app, pygame.K_e)
    scene = app.overlay
    folder = app.storage.draft_path(scene.key).parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    if folder.exists():                                      # it holds the editor's lock (Storage.claim_draft)
        shutil.rmtree(folder)
    folder.write_text("a file where the folder goes", encoding="utf-8")
    told = []
    for name in ("a", "ab", "abc"):
        scene.edit(replace(scene.draft, name=name))
        scene.quiet = 1.0
        app.pump()
        told += [m for m in app.storage.take_messages() if "draft cannot be kept" in m]
    assert len(told) == 1


def test_a_level_saved_before_its_verdict_gets_its_grade_when_the_verdict_comes(app):
    press(app, pygame.K_e)
    scene = app.overlay
    scene.edit(replace(scene.draft, name="saved at once"))
    path = scene.save()                                      # at once: no verdict on it yet
    assert path is not None and levels.load(path).difficulty is None
    assert scene.status.endswith("(its grade follows the verdict)")
    wait_for_verdict(app, scene)
    assert levels.load(path).difficulty == "easy" == scene.assessment.grade
    assert scene.status == f"Saved {path.name}, graded easy"


def test_save_of_a_draft_that_is_no_level_says_it_was_not_saved_once(app):
    app.open_editor(blank=True)
    scene = app.overlay
    press(app, pygame.K_s, pygame.KMOD_CTRL)
    lines, _ = scene.verdict_lines()
    assert lines == ["Not a level yet: paint the fleet: no ship yet", "Not saved: the line above says what to fix"]


# ----- Save as, and Ctrl+P --------------------------------------------------------------------

SAVE_AS = (pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)


def type_text(app, text):
    for char in text:
        type_key(app, char)


def save_as(app, name):
    """Ctrl+Shift+S, ``name`` typed over the name offered, Enter."""
    press(app, *SAVE_AS)
    type_text(app, name)
    press(app, pygame.K_RETURN)


def free_cell(scene):
    return next((r, c) for r in range(scene.draft.rows) for c in range(scene.draft.cols)
                if (r, c) not in scene.draft.hints)


def saved_levels():
    from window.storage import generated_dir

    folder = generated_dir()
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_save_as_saves_under_the_name_typed_and_the_editor_goes_on_with_that_file(app):
    from window.storage import generated_dir

    press(app, pygame.K_e)
    scene = app.overlay
    press(app, *SAVE_AS)
    prompt = scene.save_as
    assert prompt is not None and prompt.typed == scene.draft.name and prompt.fresh   # the name offered, selected
    type_text(app, "My Own Level")                             # the first key replaces the name offered
    assert prompt.typed == "My Own Level" and prompt.file == generated_dir() / "my-own-level.bs"
    press(app, pygame.K_RETURN)
    path = generated_dir() / "my-own-level.bs"
    assert scene.save_as is None and scene.path == path and scene.status.startswith("Saved my-own-level.bs")
    assert levels.load(path).hints == scene.draft.puzzle().hints and saved_levels() == ["my-own-level.bs"]
    click(app, scene.cell_rect(*free_cell(scene)).center)        # another level now: Save writes the same file
    press(app, pygame.K_s, pygame.KMOD_CTRL)
    assert saved_levels() == ["my-own-level.bs"] and levels.load(path).hints == scene.draft.puzzle().hints
    click(app, scene.buttons["save as"].rect.center)            # the button too, offering the file's name
    assert scene.save_as is not None and scene.save_as.typed == "my-own-level"
    press(app, pygame.K_ESCAPE)
    assert scene.save_as is None and app.overlay is scene       # Esc leaves the prompt, not the editor


def test_save_as_asks_before_replacing_another_level_and_esc_keeps_it(app):
    from window.storage import generated_dir

    other = levels.load(ROOT / "levels" / "6x6" / "easy" / "02.bs").replace(name="Not mine")
    path = generated_dir() / "taken.bs"
    levels.save(other, path)
    kept = path.read_bytes()
    press(app, pygame.K_e)
    scene = app.overlay
    save_as(app, "taken")
    prompt = scene.save_as
    assert prompt is not None and path.read_bytes() == kept
    assert prompt.asked == path and "already holds the level 'Not mine'" in prompt.said
    assert prompt.buttons[0].label == "Replace"
    type_text(app, "x")                                        # another name: the question was about the last one
    assert prompt.asked is None and prompt.said == "" and prompt.buttons[0].label == "Save"
    press(app, pygame.K_BACKSPACE)
    press(app, pygame.K_RETURN)                                 # asked again, and Esc: nothing replaced
    assert prompt.asked == path
    press(app, pygame.K_ESCAPE)
    assert scene.save_as is None and path.read_bytes() == kept and scene.path is None
    save_as(app, "taken")
    click(app, scene.save_as.buttons[0].rect.center)            # Replace
    assert scene.save_as is None and scene.path == path
    assert levels.load(path).hints == scene.draft.puzzle().hints and levels.load(path).name != "Not mine"


@pytest.mark.parametrize("typed, file", [
    ("../../escape", "escape.bs"), ("a/b\\c", "a-b-c.bs"), ("/etc/passwd", "etc-passwd.bs"),
    ("x" * 300, "x" * 80 + ".bs"), ("..", None), ("", None), ("   ", None), ("\u6226\u8266", None)])
def test_a_name_typed_never_becomes_a_path(app, typed, file):
    """The name makes a file name of letters, digits and hyphens in the levels folder, at most
    80 characters of it; a name with none of them is refused, saying why; nothing is written
    outside the folder."""
    from window.storage import generated_dir

    home = app.storage.root
    before = {p for p in home.rglob("*")}
    press(app, pygame.K_e)
    scene = app.overlay
    press(app, *SAVE_AS)
    press(app, pygame.K_BACKSPACE)                               # the name offered, cleared
    type_text(app, typed)
    assert len(scene.save_as.typed) <= 80
    press(app, pygame.K_RETURN)
    if file is None:
        assert scene.save_as is not None and scene.save_as.said.startswith("The name needs a letter or a digit")
        assert saved_levels() == []
    else:
        assert scene.save_as is None and saved_levels() == [file] and scene.path == generated_dir() / file
    written = {p for p in home.rglob("*") if p.is_file()} - before
    assert all(p.parent == generated_dir() or p.parent.name == "drafts" for p in written), written


def test_a_failed_save_leaves_the_file_as_it_was_and_says_why(app, monkeypatch):
    import errno

    from game import files

    press(app, pygame.K_e)
    scene = app.overlay
    save_as(app, "mine")
    path, kept = scene.path, scene.path.read_bytes()
    click(app, scene.cell_rect(*free_cell(scene)).center)

    def full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full)
    press(app, pygame.K_s, pygame.KMOD_CTRL)
    assert path.read_bytes() == kept and scene.status == "Could not save: No space left on device"
    press(app, *SAVE_AS)                                         # the prompt says so too, and stays open
    press(app, pygame.K_RETURN)
    assert scene.save_as is not None and scene.save_as.said == "Could not save: No space left on device"
    assert path.read_bytes() == kept and sorted(p.name for p in path.parent.iterdir()) == ["mine.bs"]
    monkeypatch.undo()
    press(app, pygame.K_RETURN)
    assert scene.save_as is None and levels.load(path).hints == scene.draft.puzzle().hints


def test_the_file_being_edited_changed_by_someone_else_is_asked_about_before_save_replaces_it(app):
    press(app, pygame.K_e)
    scene = app.overlay
    save_as(app, "shared")
    path = scene.path
    levels.save(levels.load(ROOT / "levels" / "6x6" / "easy" / "03.bs"), path)     # another window's save
    theirs = path.read_bytes()
    click(app, scene.cell_rect(*free_cell(scene)).center)
    press(app, pygame.K_s, pygame.KMOD_CTRL)
    assert path.read_bytes() == theirs and scene.save_as is not None and scene.save_as.asked == path
    assert "changed on disk since it was saved here" in scene.save_as.said
    press(app, pygame.K_RETURN)                                  # the author's answer: replace it
    assert scene.save_as is None and levels.load(path).hints == scene.draft.puzzle().hints
    click(app, scene.cell_rect(*free_cell(scene)).center)
    press(app, pygame.K_s, pygame.KMOD_CTRL)                     # ours again: written without a question
    assert scene.save_as is None and levels.load(path).hints == scene.draft.puzzle().hints


def test_after_save_as_the_draft_is_kept_for_the_new_file_and_a_save_drops_it(app):
    from window.storage import Storage, level_key

    press(app, pygame.K_e)
    scene = app.overlay
    opened_key = scene.key
    click(app, scene.cell_rect(*free_cell(scene)).center)          # another level (a key is of the content)
    scene.quiet = 1.0
    app.pump()
    assert Storage(app.storage.root).kept_draft(opened_key) == scene.draft
    save_as(app, "followed")
    path = scene.path
    assert scene.key == level_key(levels.load(path)) != opened_key
    assert Storage(app.storage.root).kept_draft(opened_key) is None       # saved: nothing to bring back
    click(app, scene.cell_rect(*free_cell(scene)).center)
    edited = scene.draft
    scene.quiet = 1.0
    app.pump()
    on_disk = Storage(app.storage.root)
    assert on_disk.kept_draft(scene.key) == edited and on_disk.kept_draft(opened_key) is None
    press(app, pygame.K_ESCAPE)
    assert app.open_level(path)                                   # the new file played, then edited
    press(app, pygame.K_e)
    assert app.overlay.draft == edited and "draft is back" in app.overlay.status
    press(app, pygame.K_ESCAPE)
    from window.app import DEFAULT_LEVEL

    assert app.open_level(DEFAULT_LEVEL)
    press(app, pygame.K_e)                                        # the level first opened: as it is
    assert app.overlay.key == opened_key and app.overlay.editor.cursor == 0


def test_a_level_of_the_users_own_folder_is_saved_where_it_was_read_and_a_pack_level_beside_them(app):
    """The editor opened from play on a level the player made (in the per-user folder) saves
    it again there: it used to write a second file, made-<name>, beside it. A level from
    anywhere else (the pack) is never written over: it is saved beside the levels made."""
    from window.app import DEFAULT_LEVEL
    from window.storage import generated_dir

    path = generated_dir() / "mine.bs"
    path.parent.mkdir(parents=True, exist_ok=True)
    levels.save(levels.load(DEFAULT_LEVEL), path)
    pack_text = DEFAULT_LEVEL.read_text()
    assert app.open_level(path)
    press(app, pygame.K_e)
    scene = app.overlay
    assert scene.path == path
    click(app, scene.cell_rect(*free_cell(scene)).center)
    press(app, pygame.K_s, pygame.KMOD_CTRL)
    assert saved_levels() == ["mine.bs"] and levels.load(path).hints == scene.draft.puzzle().hints
    press(app, pygame.K_ESCAPE)
    assert app.open_level(DEFAULT_LEVEL)
    press(app, pygame.K_e)
    scene = app.overlay
    assert scene.path is None
    click(app, scene.cell_rect(*free_cell(scene)).center)
    press(app, pygame.K_s, pygame.KMOD_CTRL)
    assert DEFAULT_LEVEL.read_text() == pack_text and len(saved_levels()) == 2


def test_ctrl_p_in_the_editor_prints_the_level_being_edited_as_play_does(app, monkeypatch):
    from window import sheets

    printed = []
    write = sheets.write
    monkeypatch.setattr(sheets, "write", lambda items, *a, **k: (printed.extend(items), write(items, *a, **k))[1])
    press(app, pygame.K_e)
    scene = app.overlay
    scene.edit(replace(scene.draft, name="Edited here"))
    click(app, scene.cell_rect(*free_cell(scene)).center)
    press(app, pygame.K_p, pygame.KMOD_CTRL)
    assert app.overlay is scene and scene.status.startswith("Printable sheet saved to ")
    path = scene.status.rsplit(" ", 1)[-1]
    assert path.endswith("edited-here-sheet.png")
    with open(path, "rb") as page:
        assert page.read(8) == b"\x89PNG\r\n\x1a\n"
    assert [item.puzzle.hints for item in printed] == [scene.draft.puzzle().hints]
    assert printed[0].puzzle.name == "Edited here"
    press(app, pygame.K_ESCAPE)
    app.open_editor(blank=True)                                  # no level yet: nothing printed, and why
    printed.clear()
    press(app, pygame.K_p, pygame.KMOD_CTRL)
    assert printed == [] and app.overlay.status == "Not printed: the line above says what to fix"


def test_the_save_as_prompt_is_drawn_over_the_editor_and_leaves_no_trace(app, monkeypatch):
    from tests.conftest import watch_text

    press(app, pygame.K_e)
    scene = app.overlay
    wait_for_verdict(app, scene)
    drawn = watch_text(monkeypatch)
    press(app, *SAVE_AS)
    type_text(app, "Drawn")
    shown = [content for content, _ in drawn]
    assert "Save as" in shown and "File: drawn.bs" in shown
    box = scene.save_as.box
    assert all(box.contains(rect) for content, rect in drawn if content == "File: drawn.bs")
    drawn.clear()
    assert scene.draw(app.screen, False) == []                   # nothing changed: nothing drawn
    press(app, pygame.K_ESCAPE)
    whole = pygame.Surface(app.screen.get_size())
    assert scene.draw(whole, True) is None
    assert pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(app.screen, "RGB")


def test_the_editor_s_check_builds_the_level_s_tables_once_beside_the_window_s_runs(app, monkeypatch):
    # The editor's check started its worker without the window's shared preparation: on a level
    # whose tables the hints' warm-up (or a solver) was building, it built each a second time.
    from game import ships
    from tests.conftest import slow_table_builds

    builds = slow_table_builds(monkeypatch)
    assert app.open_level("levels/giants/01-20x20.bs")
    app.open_editor()
    scene = app.overlay
    geo = ships.geometry_of(app.play.puzzle)
    wait_for_verdict(app, scene, 120.0)
    deadline = time.perf_counter() + 60
    while not all(name in geo.__dict__ for name in ships.TABLES) and time.perf_counter() < deadline:
        app.pump()
        time.sleep(0.001)
    built = [(name, thread) for name, geometry, thread in builds if geometry == id(geo)]
    assert sorted(name for name, _ in built) == sorted(ships.TABLES), built


@pytest.mark.parametrize("size", [(1600, 1000), (1100, 720), (800, 600), (640, 480), (480, 360)])
def test_the_mode_s_line_beside_the_title_is_whole_or_left_out(app, monkeypatch, size):
    # In a narrow window the line was cut to "Design:..." (the panel's Design button says the mode).
    from tests.conftest import resize, watch_text
    from window.scenes.editor import MODE_LINES

    resize(app, size)
    app.open_editor()
    scene = app.overlay
    for mode in MODE_LINES:
        scene.set_mode(mode)
        drawn = watch_text(monkeypatch)
        app.full_redraw = True
        app.draw()
        said = [text for text, _ in drawn if text.startswith(("Design", "Transcribe")) and text not in
                ("Design", "Transcribe")]
        assert all(text in MODE_LINES[mode] for text in said), said
        if size[0] >= 1100:
            assert said


@pytest.mark.parametrize("size", [(1100, 720), (640, 480), (480, 360)])
def test_the_title_and_the_keys_keep_clear_of_the_board_and_the_panel(app, monkeypatch, size):
    # At 480x360 the column of keys ran up behind the board, and the panel covered the title's end.
    from tests.conftest import resize, watch_text

    resize(app, size)
    app.open_editor()
    scene = app.overlay
    drawn = watch_text(monkeypatch, only=app.screen)
    app.full_redraw = True
    app.draw()
    board = pygame.Rect(scene.origin, ((scene.draft.cols + 1) * scene.cell, (scene.draft.rows + 1) * scene.cell))
    outside = [(text, rect) for text, rect in drawn if not scene.panel.contains(rect) and not board.contains(rect)]
    assert outside and outside[0][0].startswith("Level editor"[:3])
    window = pygame.Rect((0, 0), size)
    for text, rect in outside:
        assert window.contains(rect) and not rect.colliderect(board) and not rect.colliderect(scene.panel), text


def test_a_name_typed_through_an_input_method_is_taken_once(app):
    """Text that comes only as text input (an input method's, a letter the system has no key
    code for: 'ø', 'Ω', a word of kana) was dropped from the name, the author, Save as and
    the Share field, which read the key press alone; a key press's own text still counts once."""
    press(app, pygame.K_e, pygame.KMOD_SHIFT)
    scene = app.overlay
    assert isinstance(scene, EditorScene)
    press(app, pygame.K_n)                                              # the name field
    for char, alone in (("S", False), ("ø", True), ("r", False), ("en Ω かな", True)):
        if not alone:                                                   # a key press, then its text
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(char.lower()), mod=0, unicode=char,
                                                 scancode=0))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    app.pump()
    assert scene.draft.name == "Søren Ω かな"


def test_two_editors_on_one_level_keep_two_drafts_and_the_second_names_the_first(app):
    """Two windows editing one level: the second is told the first's process and keeps its draft
    in a place of its own; neither is written over, and each comes back at a later opening."""
    import subprocess
    import sys

    from window.storage import level_key

    level = levels.load(ROOT / "levels" / "6x6" / "easy" / "01.bs")
    key = level_key(level)
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from pathlib import Path; "
                               "from window.storage import Storage; "
                               f"claim = Storage(Path(sys.argv[1])).claim_draft({key!r}); "
                               "print(claim.name, flush=True); sys.stdin.read()", str(app.storage.root)],
                              cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().split() == [key]             # the first window's editor
        second = EditorScene(app, level)
        assert f"open in another editor (process {holder.pid})" in second.status
    finally:
        holder.communicate("", timeout=30)                        # the first window closed
    first = EditorScene(app, level)             # a third window meanwhile: the first place is free again
    first.edit(replace(first.draft, name="first's"))
    second.edit(replace(second.draft, name="second's"))
    ours, theirs = first.draft, second.draft
    first.close()
    second.close()
    again = EditorScene(app, level)
    assert again.draft == ours and "1 more unsaved draft" in again.status
    again.undo()                                                  # undone to the level: its draft is dropped
    again.close()
    last = EditorScene(app, level)
    assert last.draft == theirs and "draft is back" in last.status
    last.close()
