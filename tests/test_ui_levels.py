"""The built-in level opened by default, and scripted runs of the real window."""

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pytest  # noqa: E402

from game import levels, rules  # noqa: E402
from game.puzzle import Cell, Puzzle  # noqa: E402
from window import app as app_module  # noqa: E402


def all_solutions(puzzle: Puzzle) -> list:
    """Brute force, independent of the solvers: place the fleet ship by ship, ask the judge."""
    ships = [length for length, count in puzzle.fleet for _ in range(count)]
    found = []

    def placements(length):
        for r in range(puzzle.rows):
            for c in range(puzzle.cols):
                for dr, dc in ((0, 1), (1, 0)) if length > 1 else ((0, 1),):
                    cells = [(r + dr * i, c + dc * i) for i in range(length)]
                    if all(puzzle.inside(*cell) for cell in cells):
                        yield cells

    def place(index, taken, blocked, start):
        if index == len(ships):
            grid = tuple(tuple(Cell.SHIP if (r, c) in taken else Cell.WATER for c in range(puzzle.cols))
                         for r in range(puzzle.rows))
            if rules.is_solved(puzzle, grid):
                found.append(grid)
            return
        options = list(placements(ships[index]))
        # Ships of one length are interchangeable: place them in increasing order only.
        first = start if index and ships[index - 1] == ships[index] else 0
        for k in range(first, len(options)):
            cells = options[k]
            if any(cell in blocked for cell in cells):
                continue
            if any(sum(1 for cc in range(puzzle.cols) if (r, cc) in taken) + sum(1 for x in cells if x[0] == r)
                   > puzzle.row_tallies[r] for r in {x[0] for x in cells}):
                continue
            halo = {(r + a, c + b) for r, c in cells for a in (-1, 0, 1) for b in (-1, 0, 1)}
            place(index + 1, taken | set(cells), blocked | halo, k + 1)

    place(0, frozenset(), frozenset(), 0)
    return found


def test_tutorial_level_has_exactly_one_solution():
    puzzle = levels.load(app_module.DEFAULT_LEVEL)
    assert (puzzle.rows, puzzle.cols) == (6, 6)
    assert puzzle.fleet == ((3, 1), (2, 2), (1, 3))
    assert len(all_solutions(puzzle)) == 1


def test_scripted_run_solves_and_saves_a_screenshot(tmp_path, monkeypatch):
    pytest.importorskip("solvers.search.forward")
    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    shot = tmp_path / "out.png"
    code = app_module.main(solver="forward", autorun=True, exit_after_solve=True, screenshot=str(shot))
    assert code == 0 and shot.stat().st_size > 1000


def test_scripted_run_on_an_unsolvable_level_exits_non_zero_saying_why(tmp_path, monkeypatch, capsys):
    """Exit 1, and one line saying why (it exited without a word)."""
    pytest.importorskip("solvers.search.forward")
    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    # The tutorial with its top end turned into a left end: no fleet fits any more.
    broken = tmp_path / "broken.bs"
    broken.write_text(Path(app_module.DEFAULT_LEVEL).read_text().replace('"2,0": "us"', '"2,0": "ls"'))
    assert all_solutions(levels.load(broken)) == []
    code = app_module.main(level=str(broken), solver="forward", autorun=True, exit_after_solve=True)
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "no solution" in err


@pytest.mark.parametrize("scripted", [dict(screenshot="shot.png"), dict(exit_after_solve=True),
                                      dict(autorun=True, solver="forward", exit_after_solve=True)])
def test_a_scripted_run_on_a_level_that_cannot_be_opened_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys,
                                                                              scripted):
    # It ran on the built-in level instead (a screenshot of the tutorial, exit 0), or exited 1
    # as if the level had been played and not solved, the reason on standard output.
    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    bad = tmp_path / "bad.bs"
    bad.write_text('{"size": 6, "extra": 1}')
    if "screenshot" in scripted:
        scripted = {"screenshot": str(tmp_path / scripted["screenshot"])}
    assert app_module.main(level=str(bad), **scripted) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and str(bad) in err and "unknown key 'extra'" in err and out == ""
    assert not (tmp_path / "shot.png").exists()


def test_malformed_settings_fall_back_to_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    settings = tmp_path / "settings.yaml"
    settings.write_text("ui: [this is: not a mapping\n")
    window = app_module.App(settings_path=settings, window=(800, 600))
    try:
        assert window.open_level(app_module.DEFAULT_LEVEL)
        assert "settings" in window.play.status.message and window.theme.name == "light"
    finally:
        window.shutdown()


def test_browser_groups_by_size_then_difficulty_and_flags_broken_files(tmp_path):
    from window.scenes.browser import scan_levels
    from window.storage import level_key

    text = Path(app_module.DEFAULT_LEVEL).read_text()
    for where in ("10x10/hard/b.bs", "6x6/hard/c.bs", "6x6/easy/a.bs", "tutorial/first.bs", "giants/g.bs",
                  "variants/v.bs"):
        (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / where).write_text(text)
    (tmp_path / "6x6/easy/broken.bs").write_text("{")
    solved = {level_key(levels.load(app_module.DEFAULT_LEVEL))}
    rows = scan_levels(tmp_path, solved, {})
    headings = [row.label.split()[0] for row in rows if row.value is None]
    assert headings == ["tutorial", "6x6/easy", "6x6/hard", "10x10/hard", "giants", "variants"]
    broken = next(row for row in rows if row.value == tmp_path / "6x6/easy/broken.bs")
    assert broken.error and not broken.ticked
    assert all(row.ticked for row in rows if row.value is not None and not row.error)


def test_the_browser_notes_a_level_left_half_done_as_in_progress(app):
    """A player coming back found a level's play restored only by opening that level: the
    browser showed the solved levels alone, so the one left half done was lost among 170."""
    assert app.play.session.set_cell(3, 3, Cell.WATER)
    app.play.board.changed()                                  # saved, as a click saves it
    assert app.open_level(app_module.LEVELS_DIR / "6x6" / "easy" / "01.bs")
    app.open_browser()
    rows = [row for row in app.overlay.list.rows if isinstance(row.value, Path)]
    assert [row.value for row in rows if "in progress" in row.note] == [app_module.DEFAULT_LEVEL]
    assert next(row.note for row in rows if row.value == app_module.DEFAULT_LEVEL) == "6x6  in progress"


@pytest.mark.parametrize("solver", ["backtracking", "mine.py"])
def test_play_with_a_solver_opens_with_it_chosen_to_run_by_hand(tmp_path, monkeypatch, solver):
    # 'play LEVEL --solver S' without --autorun: S chosen in the panel (the guide's "watch it"
    # step with a solver of one's own); the window opened with its default solver instead.
    import main

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    if solver == "mine.py":
        assert main.main(["new-solver", "mine.py"]) == 0
    chosen = []

    def closed_at_once(app, script=None):
        chosen.append((app.play.solver.solver, app.play.solver.watch, script))
        app.shutdown()
        return 0
    monkeypatch.setattr(app_module.App, "run", closed_at_once)
    assert main.main(["play", str(app_module.DEFAULT_LEVEL), "--solver", solver]) == 0
    assert chosen == [(solver, None, None)]                   # chosen, not started
