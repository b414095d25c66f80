"""The daily puzzle, the Stats view and share codes, driven headless through the window's scenes."""

import datetime
import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import codes, levels  # noqa: E402
from game.puzzle import Cell, grid_from_strings  # noqa: E402
from solvers.authoring import daily  # noqa: E402
from tests.conftest import watch_text  # noqa: E402
from window import fonts  # noqa: E402
from window.app import LEVELS_DIR  # noqa: E402
from window.scenes.daily import DailyScene  # noqa: E402
from window.scenes.share import ShareScene, copy_text  # noqa: E402
from window.scenes.stats import StatsScene  # noqa: E402
from window.storage import daily_dir  # noqa: E402


def click(app, pos, button=1):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    app.pump()


def press(app, key, mod=0, text=""):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=text, scancode=0))
    app.pump()


def toolbar(app, label):
    return next(button for button in app.play.toolbar if button.label == label)


def solve_now(app, seconds):
    """Finish the open level with its stored solution after ``seconds`` of play."""
    play = app.play
    play.session.elapsed = seconds
    solution = play.puzzle.solution or daily_solution(play.puzzle)
    assert play.board.change(lambda s: s.replace_board(grid_from_strings(solution), "solve"))
    app.pump()


def daily_solution(puzzle):
    from game.puzzle import grid_to_strings
    from solvers.engine.verdict import decide

    return grid_to_strings(decide(puzzle).solution)


# ----- share codes ---------------------------------------------------------------------------------


def test_share_shows_the_code_copies_it_and_opens_a_typed_code(app):
    click(app, toolbar(app, "Share").rect.center)
    scene = app.overlay
    assert isinstance(scene, ShareScene) and scene.code == codes.encode(app.play.puzzle)
    click(app, scene.copy_button.rect.center)
    assert scene.said                                   # copied, or told to copy by hand
    other = levels.load(LEVELS_DIR / "8x8" / "hard" / "02.bs")
    for ch in codes.encode(other):
        press(app, pygame.K_a, text=ch)                 # typed one key at a time
    press(app, pygame.K_RETURN)
    assert app.overlay is None and app.play.session.grid is not None
    assert codes.encode(app.play.puzzle) == codes.encode(other)
    assert app.play.title.startswith("Shared bs1-")


def test_a_code_typed_in_capitals_and_groups_opens_under_the_code_the_share_dialog_shows(app):
    other = levels.load(LEVELS_DIR / "8x8" / "hard" / "02.bs")
    code = codes.encode(other)
    spaced = " ".join(code[i:i + 5] for i in range(0, len(code), 5))
    assert app.open_level(f"  {spaced.upper()} ")
    assert app.play.title == f"Shared {codes.label(code, 16)}" == f"Shared {code[:13]}..."


def test_a_mistyped_code_is_refused_in_the_field_and_the_game_stays(app):
    before = app.play.puzzle
    app.open_share()
    good = codes.encode(levels.load(LEVELS_DIR / "6x6" / "easy" / "03.bs"))
    app.overlay.typed = good[:-2] + ("00" if not good.endswith("00") else "11")
    press(app, pygame.K_RETURN)
    assert isinstance(app.overlay, ShareScene) and "checksum" in app.overlay.said
    assert app.play.puzzle is before
    app.overlay.typed = "bs1-zzzz"
    press(app, pygame.K_RETURN)                         # the reason reads as a sentence about the code
    assert app.overlay.said == "This code is too short to hold a puzzle"


def test_ctrl_v_opens_the_code_on_the_clipboard_or_the_paste_field(app):
    code = codes.encode(levels.load(LEVELS_DIR / "10x10" / "easy" / "04.bs"))
    if not copy_text(code):
        press(app, pygame.K_v, pygame.KMOD_CTRL)         # no clipboard: the paste field opens
        assert isinstance(app.overlay, ShareScene)
        return
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.overlay is None and codes.encode(app.play.puzzle) == code
    copy_text("not a code")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert isinstance(app.overlay, ShareScene) and app.overlay.typed == ""


def test_ctrl_c_copies_the_current_level_code(app):
    press(app, pygame.K_c, pygame.KMOD_CTRL)
    code = codes.encode(app.play.puzzle)
    if app.overlay is None:
        assert code in app.play.message and pygame.scrap.get_text() == code
    else:
        assert isinstance(app.overlay, ShareScene) and app.overlay.code == code


def test_without_a_clipboard_the_code_is_shown_and_a_typed_code_still_opens(app, monkeypatch):
    def missing(*args):
        raise pygame.error("no clipboard")

    monkeypatch.setattr(pygame.scrap, "put_text", missing)
    monkeypatch.setattr(pygame.scrap, "get_text", missing)
    monkeypatch.setattr(pygame.scrap, "has_text", missing)
    code = codes.encode(app.play.puzzle)
    press(app, pygame.K_c, pygame.KMOD_CTRL)             # Copy falls back to the dialog showing the code
    scene = app.overlay
    assert isinstance(scene, ShareScene) and scene.code == code
    click(app, scene.copy_button.rect.center)
    assert "by hand" in scene.said
    click(app, scene.paste_button.rect.center)
    assert "type the code" in scene.said
    app.close_overlay()
    press(app, pygame.K_v, pygame.KMOD_CTRL)             # Ctrl+V without a clipboard: the paste field
    assert isinstance(app.overlay, ShareScene)
    other = codes.encode(levels.load(LEVELS_DIR / "6x6" / "medium" / "05.bs"))
    app.overlay.typed = other
    press(app, pygame.K_KP_ENTER)
    assert app.overlay is None and codes.encode(app.play.puzzle) == other


def test_a_pasted_code_too_long_for_the_field_is_refused_for_its_length(app, monkeypatch):
    import window.app as window_app
    import window.scenes.share as share

    long = "bs1-" + "a" * (codes.MAX_CODE + 1000)
    for module in (share, window_app):
        monkeypatch.setattr(module, "pasted_text", lambda: long)
    before = app.play.puzzle
    press(app, pygame.K_v, pygame.KMOD_CTRL)             # from the board: the dialog says why
    scene = app.overlay
    assert isinstance(scene, ShareScene) and "at most 8,000" in scene.said
    scene.said = ""
    click(app, scene.paste_button.rect.center)           # the dialog's Paste: the whole text is read
    assert "at most 8,000" in scene.said and len(scene.typed) == share.MAX_TYPED
    assert app.play.puzzle is before


# ----- the daily puzzle ----------------------------------------------------------------------------


def test_daily_button_opens_today_and_a_solve_marks_the_calendar_and_the_streak(app):
    today = datetime.date.today()
    click(app, toolbar(app, "Daily").rect.center)
    assert isinstance(app.overlay, DailyScene)
    press(app, pygame.K_RETURN)                          # Play today's puzzle
    assert app.overlay is None and daily.date_of(app.play.puzzle) == today
    assert (daily_dir() / f"{today.isoformat()}.bs").is_file()          # made once, kept
    side, grade = daily.plan(today)
    assert app.play.puzzle.shape == (side, side) and app.play.puzzle.difficulty == grade
    solve_now(app, 75.0)
    assert "streak 1 day" in app.play.message
    assert app.storage.daily()[today.isoformat()]["seconds"] == 75.0
    app.open_daily()
    scene = app.overlay
    app.pump()
    cell = scene.cells[today]
    assert tuple(app.screen.get_at((cell.x + 3, cell.centery)))[:3] == app.theme.solved
    on_disk = json.loads(app.storage.daily_path.read_text())
    assert list(on_disk) == [today.isoformat()]


def test_the_daily_puzzle_is_played_when_it_cannot_be_kept(app, monkeypatch):
    def full(puzzle, path, **_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(levels, "save", full)
    today = datetime.date.today()
    assert app.play_daily(today)
    assert daily.date_of(app.play.puzzle) == today and app.play.path is None
    assert "Could not keep the daily puzzle (No space left on device)" in app.play.message
    assert not (daily_dir() / f"{today.isoformat()}.bs").exists()
    solve_now(app, 60.0)
    assert app.storage.daily()[today.isoformat()]["seconds"] == 60.0      # and the day still counts


def test_a_damaged_daily_puzzle_file_is_kept_aside_not_made_again_over_it(app):
    # The day's file in the per-user folder was made again over a damaged one (or over another
    # day's level put there); it is kept aside, as every damaged user file is, and one line says so.
    today = datetime.date.today()
    path = daily_dir() / f"{today.isoformat()}.bs"
    path.parent.mkdir(parents=True, exist_ok=True)
    for content in ("{not a level", levels.dumps(daily.puzzle_of(today - datetime.timedelta(days=1)))):
        path.write_text(content)
        assert app.play_daily(today)
        app.pump()
        assert daily.date_of(app.play.puzzle) == today and app.play.path == path
        kept = [aside for aside in daily_dir().glob(f"{today.isoformat()}.damaged-*.bs")
                if aside.read_text() == content]
        assert len(kept) == 1, sorted(daily_dir().iterdir())
        assert f"kept as {kept[0].name}" in app.play.message and str(path) in app.play.message
        kept[0].unlink()
    assert daily.date_of(levels.load(path)) == today


def test_a_past_day_is_played_from_the_calendar_without_counting_for_the_streak(app):
    today = datetime.date.today()
    app.open_daily()
    scene = app.overlay
    scene.turn(-1)                                       # last month: every day is past
    day = min(scene.cells)
    click(app, scene.cells[day].center)
    assert app.overlay is None and daily.date_of(app.play.puzzle) == day
    solve_now(app, 30.0)
    assert app.storage.daily() == {} and today.isoformat() not in app.storage.daily()


# ----- records and the Stats view ------------------------------------------------------------------


def test_records_stats_and_a_new_record_message(app):
    app.open_level(LEVELS_DIR / "10x10" / "easy" / "01.bs")
    assert "target 3:20" in _status_text(app)
    press(app, pygame.K_c)                              # a check counts
    solve_now(app, 250.0)
    assert "Target 3:20." in app.play.message and "record" not in app.play.message
    app.open_level(LEVELS_DIR / "10x10" / "easy" / "02.bs")
    solve_now(app, 100.0)
    assert "New record for 10x10 easy! (was 4:10)" in app.play.message and "beaten" in app.play.message
    click(app, toolbar(app, "Stats").rect.center)
    scene = app.overlay
    assert isinstance(scene, StatsScene)
    [row] = [row for row in scene.rows if row.size == "10x10"]
    assert (row.grade, row.solved, row.best, row.median, row.checks) == ("easy", 2, 100.0, 175.0, 1)
    assert scene.cells(row)[3:6] == ("1:40", "2:55", "3:20")


def test_a_finish_past_an_hour_reads_as_the_stats_read_it(app, monkeypatch):
    # The status line, the finish message and the banner say a time as Stats and the pause do.
    app.open_level(LEVELS_DIR / "10x10" / "expert" / "01.bs")
    drawn = watch_text(monkeypatch)
    solve_now(app, 4000.0)
    app.full_redraw = app.dirty = True
    app.pump()
    texts = [text for text, _ in drawn]
    assert app.play.message.startswith("Solved! 1:06:40 - well done.")
    assert "in 1:06:40" in texts
    assert any(text.startswith("SOLVED  time 1:06:40 / target 5:30") for text in texts)
    assert not any("66:40" in text for text in [*texts, app.play.message])


def test_a_window_open_meanwhile_sees_the_records_another_window_writes(app):
    # Two windows on one folder: what the other records is in this one's Stats, calendar and
    # level list at their next opening, and the level it solved opens here as solved, not
    # recorded again as if its record had been lost ("the solve is now recorded").
    from game.session import Session
    from window import records
    from window.storage import Storage, level_key

    app.open_stats()
    assert app.overlay.rows == [] and app.overlay.streak == (0, 0)
    app.close_overlay()
    other = Storage()                                   # the other window, on the same folder
    path = LEVELS_DIR / "6x6" / "easy" / "02.bs"
    level = levels.load(path)
    play = Session(level)
    play.replace_board(grid_from_strings(level.solution), "solve")
    play.elapsed = 70.0
    assert play.solved and other.save_play(level_key(level), play)
    records.finish(other, level, level_key(level), "02", 70.0, {})
    today = datetime.date.today()
    records.finish(other, daily.puzzle_of(today), "k" * 20, "daily", 90.0, {})
    recorded = other.solved()
    app.open_stats()
    side, grade = daily.plan(today)
    assert sorted((row.size, row.grade, row.solved) for row in app.overlay.rows) == \
        sorted([("6x6", "easy", 1), (f"{side}x{side}", grade, 1)])
    assert app.overlay.streak == (1, 1)
    app.close_overlay()
    app.open_daily()
    assert today.isoformat() in app.overlay.solved
    app.close_overlay()
    app.open_browser()
    assert any(row.ticked and row.value == path for row in app.overlay.list.rows)
    app.close_overlay()
    assert app.open_level(path)
    assert app.play.session.solved and app.play.message == "Progress restored"
    assert Storage().solved() == recorded


# ----- a solved level played again ----------------------------------------------------------------

SIX = LEVELS_DIR / "6x6" / "easy" / "01.bs"


def test_a_solved_level_played_again_is_timed_afresh_and_its_records_stay_true(app):
    # R on a solved level, and the status line's "Play again": the hints only, the clock from
    # 0:00, nothing to undo back to the solution; a faster finish is a new record, a slower one
    # leaves the best time.
    app.open_level(SIX)
    play = app.play
    solve_now(app, 100.0)
    assert play.view.offered() is play.again_button
    press(app, pygame.K_r)
    session = play.session
    assert not session.solved and session.grid == session.start and not session.can_undo
    assert session.elapsed < 0.1
    assert play.message == "Playing again: the clock starts from 0:00. Your best, 1:40, is kept."
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert session.grid == session.start and not session.solved
    assert play.view.offered() is None
    for _ in range(30):
        app.pump()
    assert session.elapsed == pytest.approx(30 / 60 + 2 / 60)          # the clock runs again
    solve_now(app, 80.0)
    assert "Solved! 1:20" in play.message and "New record for this level! (was 1:40)" in play.message
    assert app.storage.solved()[play.key]["seconds"] == 80.0
    app.full_redraw = app.dirty = True
    app.pump()
    click(app, play.again_button.rect.center)
    assert not play.session.solved and play.session.grid == play.session.start
    solve_now(app, 120.0)
    assert "Solved! 2:00" in play.message and "record" not in play.message
    assert app.storage.solved()[play.key]["seconds"] == 80.0


def test_the_new_record_is_read_whole_beside_play_again_in_the_default_window(app, monkeypatch):
    # The status line gave its offered button a fixed 190 px: in the default window, 1200 px,
    # the solve's message was cut before the time it beat. The button is as wide as its label.
    from tests.conftest import resize, watch_text

    app.open_level(SIX)
    play = app.play
    solve_now(app, 100.0)
    press(app, pygame.K_r)
    resize(app, (1200, 820))
    solve_now(app, 80.0)
    drawn = watch_text(monkeypatch)
    app.full_redraw = app.dirty = True
    app.pump()
    assert "New record for this level! (was 1:40)" in play.message
    assert any(text == play.message for text, _ in drawn), [text for text, _ in drawn if "Solved" in text]


@pytest.mark.parametrize("size", [(480, 360), (639, 480), (999, 700), (1200, 820)])
def test_the_longest_finish_message_is_read_whole_down_to_the_smallest_window(app, monkeypatch, size):
    # The status line was one line at every width: in a narrow window the finish's record, streak
    # and target were cut ("Solved! 0:10 - well d..." at the smallest, 480 px). A window narrower
    # than the toolbar's one row gives the message lines below the clock instead.
    from tests.conftest import resize
    from window.settings import MIN_WINDOW

    assert size[0] > MIN_WINDOW[0] or size == MIN_WINDOW
    side, grade = daily.plan(datetime.date.today())
    app.open_level(LEVELS_DIR / f"{side}x{side}" / grade / "01.bs")
    solve_now(app, 3700.0)                                         # the size and grade's best: past an hour
    assert app.play_daily(datetime.date.today())
    resize(app, size)
    solve_now(app, 3650.0)
    message = app.play.message
    assert "New record for" in message and "streak 1 day" in message and "Target" in message
    drawn = watch_text(monkeypatch)
    app.full_redraw = app.dirty = True
    app.pump()
    bar = app.play.layout.status
    lines = [(rect.y, text) for text, rect in drawn if rect.colliderect(bar) and rect.x < bar.x + 20]
    assert all(bar.contains(rect) for text, rect in drawn if rect.colliderect(bar))
    assert " ".join(text for _, text in sorted(lines)) == message, lines


def test_a_long_message_on_a_one_line_status_is_drawn_smaller_before_it_is_cut(app, monkeypatch):
    # A hint's reason is often longer than the default window's one status line (a tenth of
    # the hints on the pack's 10x10 levels): it was cut at the status line's one size.
    from tests.conftest import resize

    resize(app, (1200, 820))
    assert app.play.layout.status_lines == 1
    message = ("Hint: If row 1, column 2 were ship: ships never touch, not even diagonally: the cells diagonal "
               "to (row 1, column 1), (row 3, column 4) are water (and 10 more steps); then the 2 missing "
               "cruisers would fit.")
    assert fonts.font(18).size(message)[0] > 800
    app.play.notify(message)
    drawn = watch_text(monkeypatch)
    app.full_redraw = app.dirty = True
    app.pump()
    bar = app.play.layout.status
    assert [text for text, rect in drawn if rect.colliderect(bar) and rect.x < bar.x + 20] == [message]


def test_restart_during_an_attempt_stays_undoable(app):
    app.open_level(SIX)
    play = app.play
    session = play.session
    cell = next(cell for cell in play.puzzle.cells() if not session.is_hint(*cell))
    click(app, play.layout.cell_rect(*cell).center)
    marks = session.grid
    assert marks != session.start
    press(app, pygame.K_r)
    assert session.grid == session.start and "Ctrl+Z brings your marks back" in app.play.message
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert session.grid == marks


def test_hints_checks_and_a_solver_s_help_count_for_the_attempt_they_were_asked_in(app):
    app.open_level(SIX)
    play = app.play
    press(app, pygame.K_c)                                # a check, then the solver's board kept
    play.session.asked["solver"] += 1
    solve_now(app, 50.0)
    assert "not recorded as your solve" in play.message and not app.storage.is_solved(play.key)
    press(app, pygame.K_r)
    assert not any(play.session.asked.values())
    solve_now(app, 70.0)
    assert "Solved! 1:10" in play.message
    record = app.storage.solved()[play.key]
    assert (record["seconds"], record["checks"]) == (70.0, 0)


def test_a_window_killed_during_an_attempt_comes_back_to_the_attempt(app):
    # The saved play is the attempt from its start: a window killed with it under way opens the
    # attempt again (its marks and clock, not solved), and the records keep the earlier best.
    from window.storage import Storage

    app.open_level(SIX)
    play = app.play
    solve_now(app, 90.0)
    press(app, pygame.K_r)
    assert Storage().restore_play(play.key, play.puzzle).solved is False      # saved at once
    cell = next((r, c) for r, c in play.puzzle.cells() if not play.session.is_hint(r, c))
    click(app, play.layout.cell_rect(*cell).center)                 # a move, saved as it is made
    play.session.elapsed = 12.0
    play.board.save()
    restored = Storage().restore_play(play.key, play.puzzle)         # what a new window reads
    assert restored is not None and not restored.solved and restored.elapsed == 12.0
    assert restored.grid == play.session.grid and len(restored.history) == len(play.session.history)
    app.open_level(LEVELS_DIR / "6x6" / "easy" / "02.bs")
    app.open_level(SIX)
    assert not app.play.session.solved and app.play.session.grid == restored.grid
    assert "now recorded" not in app.play.message
    assert app.storage.solved()[play.key]["seconds"] == 90.0


def test_todays_daily_played_again_keeps_the_days_best_time_and_its_streak(app):
    # The day's record is its best time (records model): a faster replay on the day lowers it,
    # a slower one does not; the day counts once for the streak.
    today = datetime.date.today()
    assert app.play_daily(today)
    solve_now(app, 90.0)
    press(app, pygame.K_r)
    solve_now(app, 60.0)
    assert "New record for this level! (was 1:30)" in app.play.message
    assert "streak 1 day." in app.play.message
    press(app, pygame.K_r)
    solve_now(app, 120.0)
    assert app.storage.daily() == {today.isoformat(): app.storage.daily()[today.isoformat()]}
    assert app.storage.daily()[today.isoformat()]["seconds"] == 60.0
    app.open_stats()
    assert app.overlay.streak == (1, 1)


def test_a_past_days_puzzle_played_again_counts_for_no_day(app):
    day = datetime.date.today() - datetime.timedelta(days=3)
    assert app.play_daily(day)
    solve_now(app, 90.0)
    press(app, pygame.K_r)
    solve_now(app, 60.0)
    assert "New record for this level!" in app.play.message and app.storage.daily() == {}


def _status_text(app):
    play = app.play
    return f"target {play.board.target // 60}:{play.board.target % 60:02d}" if play.board.target else ""


def test_play_takes_a_code_on_the_command_line(tmp_path, capsys):
    import main

    code = codes.encode(levels.load(LEVELS_DIR / "8x8" / "hard" / "03.bs"))
    shot = tmp_path / "shot.png"
    assert main.main(["play", code, "--screenshot", str(shot)]) == 0
    assert shot.stat().st_size > 0
    mistyped = code[:-1] + ("0" if code[-1] != "0" else "1")
    assert main.main(["play", mistyped, "--exit-after-solve"]) == 2
    assert "fails its checksum" in capsys.readouterr().err


# ----- the smallest window and the largest records ---------------------------------------------------


@pytest.fixture
def small_app_with_huge_records(tmp_path, monkeypatch):
    """The window at the smallest size the settings allow, over records that are sound but
    extreme: 400 days of daily puzzles and levels each solved in 30 years, a grade of 20
    wide letters, a million hints in each play."""
    from window.app import DEFAULT_LEVEL, App
    from window.settings import MIN_WINDOW

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("BATTLESHIPS_HOME", str(home))
    today = datetime.date.today()
    days = {(today - datetime.timedelta(days=n)).isoformat(): {"seconds": 1e9, "when": "x"} for n in range(400)}
    (home / "daily.json").write_text(json.dumps(days))
    solved = {f"k{n}": {"seconds": 1e9 - n, "name": "n", "when": "x", "size": f"{999 - n % 3}x999",
                        "grade": ["W" * 20, "easy"][n % 2], "hints": 10 ** 6, "checks": 10 ** 6} for n in range(1200)}
    (home / "solved.json").write_text(json.dumps(solved))
    window = App(window=MIN_WINDOW)
    assert window.open_level(DEFAULT_LEVEL)
    yield window
    if pygame.display.get_init():
        window.shutdown()


def overlapping(labels):
    return [(a[0], b[0]) for n, a in enumerate(labels) for b in labels[n + 1:] if a[1].colliderect(b[1])]


def test_stats_cells_stay_in_their_columns_at_the_smallest_window(small_app_with_huge_records, monkeypatch):
    app = small_app_with_huge_records
    app.open_stats()
    drawn = watch_text(monkeypatch)
    app.overlay.draw(app.screen)
    box = app.overlay.box
    assert drawn and all(box.contains(rect) for _, rect in drawn)
    assert overlapping(drawn) == []
    assert any(text.endswith("...") for text, _ in drawn)            # the wide grade, cut and said so


def test_the_calendar_s_streaks_are_read_whole_in_the_smallest_window(small_app_with_huge_records, monkeypatch):
    # At 480 px the summary was cut after the current streak ("Streak 400 days   longest...").
    from tests.conftest import resize

    app = small_app_with_huge_records
    resize(app, (480, 360))
    app.open_daily()
    drawn = watch_text(monkeypatch)
    app.overlay.draw(app.screen)
    current, longest = app.overlay.streak
    [summary] = [text for text, _ in drawn if text.startswith("Streak")]
    assert f"Streak {current}" in summary and f"longest {longest}" in summary and not summary.endswith("...")


def test_stats_headings_are_whole_and_apart_at_the_smallest_window(small_app_with_huge_records, monkeypatch):
    # The headings were drawn at one size whatever the width: at 480 px "Median" ran into
    # "Target" ("MedianTarget") and "Checks" past the table's edge.
    from window.scenes.stats import COLUMNS

    app = small_app_with_huge_records
    app.open_stats()
    drawn = watch_text(monkeypatch)
    app.overlay.draw(app.screen)
    names = [name for name, _ in COLUMNS]
    headings = sorted(((rect.x, text, rect) for text, rect in drawn if text in names), key=lambda item: item[0])
    assert [text for _, text, _ in headings] == names                     # each whole, none cut
    table_right = app.overlay.box.right - 20
    for (_, _, rect), (left, _, _) in zip(headings, headings[1:] + [(table_right + 6, "", None)]):
        assert rect.right <= left - 6


def test_the_daily_calendar_fits_the_smallest_window_and_counts_its_streak_once(small_app_with_huge_records,
                                                                                 monkeypatch):
    import window.scenes.daily as daily_scene

    counted = []
    real = daily_scene.streaks
    monkeypatch.setattr(daily_scene, "streaks", lambda *args: counted.append(1) or real(*args))
    app = small_app_with_huge_records
    app.open_daily()
    scene = app.overlay
    drawn = watch_text(monkeypatch)
    for _ in range(5):
        drawn.clear()
        scene.draw(app.screen)
    assert len(counted) <= 1                                         # not once a frame over 400 days
    assert drawn and all(scene.box.contains(rect) for _, rect in drawn)
    buttons = [button.rect for button in scene.buttons]
    assert [text for text, rect in drawn if any(rect.colliderect(b) and not b.contains(rect) for b in buttons)] == []
    for rect in scene.cells.values():                                # a day's time stays in its day
        inside = [label for label in drawn if label[1].colliderect(rect)]
        assert all(rect.contains(label[1]) for label in inside) and overlapping(inside) == []


@pytest.mark.parametrize("size", [(480, 360), (640, 480), (1100, 720)])
def test_six_weeks_of_days_stay_apart_and_legible_in_the_smallest_layout(app, monkeypatch, size):
    from tests.conftest import resize

    resize(app, size)
    day = datetime.date(2026, 3, 15)                     # March 2026 spans six weeks
    assert app.storage.mark_daily("2026-03-02", 75.0)
    scene = DailyScene(app, today=day)
    app.overlay = scene
    drawn = watch_text(monkeypatch)
    scene.draw(app.screen)
    cells = list(scene.cells.values())
    assert len({rect.y for rect in cells}) == 6
    assert not [(a, b) for n, a in enumerate(cells) for b in cells[n + 1:] if a.colliderect(b)]
    for date, rect in scene.cells.items():               # each day's number (and time) inside its day
        inside = [label for label in drawn if label[1].colliderect(rect)]
        assert str(date.day) in [text for text, _ in inside]
        assert all(rect.contains(label[1]) for label in inside) and overlapping(inside) == []
        assert not [text for text, _ in inside if text.endswith("...")]     # a time whole, or none
    assert all(scene.box.contains(rect) for _, rect in drawn)
    assert overlapping([label for label in drawn if not any(label[1].colliderect(r) for r in cells)]) == []


def test_the_calendar_stops_at_the_first_and_last_months_it_can_show(app):
    app.open_daily()
    scene = app.overlay
    scene.month = datetime.date(1, 1, 1)
    press(app, pygame.K_PAGEUP)
    assert scene.month == datetime.date(1, 1, 1) and app.running
    scene.month = datetime.date(9999, 11, 1)
    press(app, pygame.K_PAGEDOWN)
    assert scene.month == datetime.date(9999, 11, 1) and app.running
    app.draw()


def test_a_calendar_left_open_past_midnight_plays_the_new_day(app, monkeypatch):
    """The calendar follows the date: left open over midnight, its button and its Enter play the
    new day's puzzle, not the day it was opened on."""
    from window.scenes import daily as daily_scene

    opened = datetime.date(2026, 3, 1)

    class Clock(datetime.date):
        now = opened

        @classmethod
        def today(cls):
            return cls.now

    monkeypatch.setattr(daily_scene.datetime, "date", Clock)
    app.open_daily()
    scene = app.overlay
    assert scene.today == opened
    Clock.now = opened + datetime.timedelta(days=1)
    app.pump()
    assert scene.today == Clock.now and scene.selected == Clock.now
    assert scene.play_button.label.startswith("Play today's puzzle")
    played = []
    monkeypatch.setattr(scene, "play", played.append)
    press(app, pygame.K_RETURN)
    assert played == [Clock.now]


def drawn_over(app, monkeypatch, size, opener):
    """The overlay ``opener`` opens in a window of ``size``, and the text its drawing draws
    (``watch_text``)."""
    from tests.conftest import resize

    resize(app, size)
    opener()
    drawn = watch_text(monkeypatch)
    app.draw()
    return app.overlay, drawn


@pytest.mark.parametrize("size", [(1100, 720), (800, 600), (640, 480)])
def test_the_calendar_s_note_reads_whole_down_to_640x480(app, monkeypatch, size):
    # The note under the days names the keys last (Page Up/Down: months): drawn smaller before it is cut.
    _, drawn = drawn_over(app, monkeypatch, size, app.open_daily)
    notes = [text for text, _ in drawn if "Page Up/Down" in text]
    assert notes and notes[0].endswith("Page Up/Down: months."), notes


@pytest.mark.parametrize("size", [(480, 1000), (520, 700)])
def test_the_calendar_s_notes_wrap_whole_onto_two_lines_in_a_narrow_window(app, monkeypatch, size):
    # Below 640 pixels the note lost its keys ("... to play it; P...") and the plan its weekend.
    scene, drawn = drawn_over(app, monkeypatch, size, app.open_daily)
    last_week = max(rect.bottom for rect in scene.cells.values())
    below = sorted(((text, rect) for text, rect in drawn if rect.left == scene.box.x + 20
                    and last_week < rect.top < scene.play_button.rect.top), key=lambda item: item[1].top)
    said = " ".join(text for text, _ in below)
    assert len(below) == 4 and all(scene.box.contains(rect) for _, rect in below)
    assert all(above.bottom <= under.top for (_, above), (_, under) in zip(below, below[1:]))
    assert "Page Up/Down: months." in said and said.endswith("Sun 10x10 hard")
    assert not any(text.endswith(fonts.ELLIPSIS) for text, _ in below)
    days = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
    assert all(text.startswith(days) and text.endswith(("easy", "medium", "hard"))
               for text, _ in below[2:])                          # the plan's lines: never a day broken


@pytest.mark.parametrize("size", [(1100, 720), (640, 480), (480, 360)])
def test_the_stats_notes_read_whole_down_to_640x480_and_nearly_so_below(app, monkeypatch, size):
    # Each note was cut to the box's width on its own line; in a narrow window they flow instead.
    scene, drawn = drawn_over(app, monkeypatch, size, app.open_stats)
    box = scene.box
    notes = [(text, rect) for text, rect in drawn if rect.top >= box.bottom - 72 and rect.left == box.x + 20]
    assert len(notes) == 3 and all(scene.box.contains(rect) for _, rect in notes)
    said = " ".join(text for text, _ in notes)
    if size[0] >= 640:
        assert not any(text.endswith(fonts.ELLIPSIS) for text, _ in notes), notes
    assert said.startswith("Times are each level's best") and "Target: the engine's median" in said
    assert len(said) >= 0.95 * len("Times are each level's best; hints and checks, those asked in the plays that "
                                   "set them. Target: the engine's median deduction steps over the pack's levels "
                                   "of that size and grade, times 8 s a step (an assumed pace of a person, not a "
                                   "measured one).")


def test_a_day_played_and_not_solved_is_marked_in_progress_on_the_calendar(app):
    # As the level browser notes a level left half done, the calendar marks its day.
    today = datetime.date.today()
    app.open_daily()
    app.overlay.turn(-1)                                 # last month: every day is past
    day, other = sorted(app.overlay.cells)[:2]
    click(app, app.overlay.cells[day].center)
    assert daily.date_of(app.play.puzzle) == day
    free = next((r, c) for r in range(app.play.puzzle.rows) for c in range(app.play.puzzle.cols)
                if (r, c) not in app.play.puzzle.hints)
    assert app.play.board.change(lambda session: session.set_cell(*free, Cell.WATER))   # one mark: the play is saved
    app.open_daily()
    scene = app.overlay
    assert scene.in_progress == {day}
    scene.turn((day.year - today.year) * 12 + day.month - today.month)
    app.full_redraw = True
    app.pump()
    cell = scene.cells[day]
    glyph = (cell.right - 15, cell.y + 13)               # the left, filled half of its circle
    assert tuple(app.screen.get_at(glyph))[:3] == app.theme.text
    assert tuple(app.screen.get_at((scene.cells[other].right - 15, scene.cells[other].y + 13)))[:3] != app.theme.text
    app.close_overlay()
    solve_now(app, 30.0)                                 # solved (late: not for the streak), no longer in progress
    app.open_daily()
    assert app.overlay.in_progress == set()
