"""Names and texts the window draws: a cost that does not grow with their length, control
characters drawn as a mark, and a window that survives (and quits on SIGTERM) whatever the name."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

import main  # noqa: E402
from tests.conftest import resize, watch_text  # noqa: E402
from window import fonts  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "6x6" / "easy" / "01.bs"


def named_level(folder: Path, name: str, file: str = "named.bs") -> Path:
    data = json.loads(LEVEL.read_text())
    data["name"] = name
    path = folder / file
    path.write_text(json.dumps(data))
    return path


class Counting:
    """A font whose measurements are counted."""

    def __init__(self, face):
        self.face, self.sizes = face, 0

    def size(self, text):
        self.sizes += 1
        return self.face.size(text)

    def __getattr__(self, name):
        return getattr(self.face, name)


@pytest.fixture
def counted(monkeypatch):
    pygame.font.init()
    faces = {}
    real = fonts.font

    def font(size, bold=False):
        key = (size, bold)
        if key not in faces:
            faces[key] = Counting(real(size, bold))
        return faces[key]

    font.cache_clear = faces.clear
    monkeypatch.setattr(fonts, "font", font)
    fonts.forget()
    yield lambda: sum(face.sizes for face in faces.values())
    fonts.forget()
    real.cache_clear()                  # the fonts measured here may die with the window


# ----- item 3: a cost that does not grow with the text's length ---------------------------------


def test_a_long_text_is_cut_in_a_few_measurements_once_not_per_frame(counted):
    long = "word " * 20_000                            # 100,000 characters
    cut = fonts.fit_text(long, 18, 400)
    first = counted()
    assert cut.endswith(fonts.ELLIPSIS) and fonts.font(18).size(cut)[0] <= 400
    assert first <= 16                               # halving, not one character at a time
    assert fonts.font(18).size(fonts.visible(long)[:len(cut) - 2] + fonts.ELLIPSIS)[0] > 400   # the longest cut
    for _ in range(10):                              # the next frames measure nothing
        assert fonts.fit_text(long, 18, 400) == cut
    assert counted() == first + 2                    # (the two checks above)


def test_a_long_text_wrapped_into_a_few_rows_measures_only_those_rows(counted):
    long = "word " * 20_000                            # 100,000 characters
    rows = fonts.wrap(long, 17, 300, most=3)
    assert len(rows) == 3 and " ".join(rows).split() == long.split()
    assert counted() < 200                           # the words of three rows, not all 20,000
    assert all(fonts.font(17).size(row)[0] <= 300 for row in rows[:2])


def test_a_path_wider_than_a_row_is_wrapped_after_its_slashes_not_cut(counted):
    # "Printable sheet saved to /home/.../generated-6x6-easy-6101-sheet.png" in the editor's
    # panel lost the file's name: a word wider than a row had a row of its own, cut short.
    path = "/home/someone/.local/share/battleships/generated/generated-6x6-easy-6101-sheet.png"
    rows = fonts.wrap(f"Printable sheet saved to {path}", 17, 260)
    assert "".join(rows[1:]) == path and rows[0] == "Printable sheet saved to"
    assert all(fonts.font(17).size(row)[0] <= 260 for row in rows)
    assert all(row.endswith(("/", "-")) for row in rows[1:-1])      # broken where a reader breaks a path
    no_breaks = "x" * 400
    rows = fonts.wrap(no_breaks, 17, 100)
    assert "".join(rows) == no_breaks and all(fonts.font(17).size(row)[0] <= 100 for row in rows)
    before = counted()
    rows = fonts.wrap("y" * 100_000, 17, 300, most=3)            # bounded: three rows measured, the rest cut
    assert len(rows) == 3 and "".join(rows) == "y" * 100_000 and counted() - before < 40


def test_a_short_text_that_fits_is_kept_whole_and_a_cut_one_says_so(counted):
    assert fonts.fit_text("Ahoy", 18, 400) == "Ahoy"
    just = "x" * fonts.MAX_SHOWN + "y"                 # past the bounded cut: never shown whole
    assert fonts.fit_text(just, 8, 100_000).endswith(fonts.ELLIPSIS)
    assert fonts.fit_text("anything", 18, 0) == fonts.ELLIPSIS


def test_drawing_a_label_of_any_length_renders_a_bounded_text(monkeypatch):
    pygame.font.init()
    rendered = []
    real = fonts._render.__wrapped__

    def render(content, *rest):
        rendered.append(content)
        return real(content, *rest)

    monkeypatch.setattr(fonts, "_render", render)
    surface = pygame.Surface((200, 40))
    fonts.blit_text(surface, "x" * 1_000_000, 15, (0, 0, 0))
    assert rendered == ["x" * fonts.MAX_SHOWN]


def test_a_window_frame_with_a_100000_character_name_measures_like_a_short_one(app, tmp_path, counted):
    def measurements_per_frame(name, file):
        assert app.open_level(named_level(tmp_path, name, file))
        app.full_redraw = True
        app.draw()                                    # the first frame cuts the texts
        before = counted()
        for _ in range(3):
            app.full_redraw = True
            app.draw()
        return (counted() - before) / 3

    short = measurements_per_frame("Short", "short.bs")
    long = measurements_per_frame("a long name " * 8_334, "long.bs")
    assert long <= short + 1                          # the cut is not measured again each frame


def test_play_screenshot_of_a_level_with_a_100000_character_name_ends(tmp_path):
    level = named_level(tmp_path, "n" * 100_000)
    shot = tmp_path / "shot.png"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", BATTLESHIPS_HOME=str(tmp_path / "home"))
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "play", str(level), "--screenshot", str(shot)],
                          env=env, timeout=120, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert shot.stat().st_size > 1000


def test_sigterm_ends_the_window_whatever_it_draws(tmp_path):
    """SDL turns SIGTERM into a quit event: the loop handles it even with a huge name to draw."""
    level = named_level(tmp_path, "n" * 100_000)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", BATTLESHIPS_HOME=str(tmp_path / "home"))
    process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "play", str(level)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(4)                                 # started, and drawing
        assert process.poll() is None
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 143          # ended by SIGTERM, as a shell reports it
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# ----- item 4: control characters ----------------------------------------------------------------


def test_control_characters_are_shown_as_a_mark_the_font_has():
    pygame.font.init()
    assert fonts.visible("evil\x00name\x1b[2J\x7f\ud800\u202e") == "evil" + fonts.MARK + "name" + fonts.MARK \
        + "[2J" + fonts.MARK * 3
    face = fonts.font(20)
    # the mark is a glyph of the font, not its "missing" box (which every absent character shares)
    assert face.metrics(fonts.MARK) != face.metrics("\ufffd")
    image = fonts.text("a\x00b", 20, (0, 0, 0))       # pygame refuses a NUL: drawn as the mark
    assert image.get_width() == fonts.text("a" + fonts.MARK + "b", 20, (0, 0, 0)).get_width()


def test_text_with_a_lone_surrogate_flows_onto_lines_not_a_crash():
    """A replay's statistics (a trace may say any text, a lone surrogate too) are flowed onto
    lines by measuring them: the font raised UnicodeEncodeError on the raw text."""
    assert fonts.flow(["nodes: 1", "generation: \ud800", "b\x00"], 17, 600, gap="    ") == [
        "nodes: 1    generation: \ud800    b\x00"]
    assert "".join(fonts.flow(["a/\ud800" * 40], 17, 120, breaks="/")) == "a/\ud800" * 40


def test_a_nul_in_a_level_name_is_drawn_and_titled_not_a_crash(app, tmp_path):
    assert app.open_level(named_level(tmp_path, "evil\u0000name"))
    app.draw()
    assert pygame.display.get_caption()[0].endswith("evil" + fonts.MARK + "name")
    assert fonts.fit_text(app.play.title, 20, 1000) == "evil" + fonts.MARK + "name"


def titles_drawn(app, monkeypatch, size):
    """The labels drawn right of the toolbar's last button in a window of ``size``."""
    labels = watch_text(monkeypatch)
    resize(app, size)
    app.full_redraw = True
    app.draw()
    last = app.play.shown_toolbar[-1].rect
    return {text for text, rect in labels if rect.left > last.right and rect.centery == last.centery}


@pytest.mark.parametrize("size", [(1600, 1000), (1200, 820), (1000, 700), (480, 360)])
def test_the_title_is_drawn_smaller_before_it_is_cut_and_keeps_the_size(app, tmp_path, monkeypatch, size):
    """The pack's longest name (a 15x15 expert's) reads whole, its number too, in every window
    wide enough for its letters at the smallest size; a name too long for any keeps its size."""
    assert app.open_level(ROOT / "levels" / "15x15" / "expert" / "03.bs")
    name = app.play.title
    titles = titles_drawn(app, monkeypatch, size)
    assert titles == {name} or size == (480, 360)         # there beside 7 buttons: no room for 29 letters
    assert app.open_level(named_level(tmp_path, "Ωμέγα Søren " * 20))
    titles = titles_drawn(app, monkeypatch, size)
    assert len(titles) == 1 and titles.pop().endswith(f"{fonts.ELLIPSIS}  (6x6)")


def test_dropping_a_nul_named_level_on_the_window_opens_it(app, tmp_path):
    path = named_level(tmp_path, "evil\u0000name")
    pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=str(path)))
    app.pump()
    assert app.running and app.play.path == path and app.play.title == "evil\u0000name"
    app.draw()


def test_a_replay_with_nuls_in_its_names_and_details_draws(app, tmp_path, capsys):
    path = tmp_path / "logic.jsonl"
    assert main.main(["solve", "levels/10x10/hard/01.bs", "--solver", "logic", "--trace", str(path)]) == 0
    capsys.readouterr()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[0]["level"]["name"] = "evil\u0000level"
    lines[3]["detail"] = "a \u0000 deduction"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert app.open_replay(path)
    scene = app.overlay
    for n in (0, 3, scene.run.events):
        scene.goto(n)
        app.draw()
    assert scene.event()["detail"] == lines[-2]["detail"]
    assert any("\u0000" in text for _, text in scene.timeline.steps)
    # the solver's name as well (not one this program knows: its steps are not listed)
    lines[0]["solver"] = "lo\u0000gic"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert app.open_replay(path)
    app.draw()


# ----- combining marks -----------------------------------------------------------------------------


def test_a_pile_of_combining_marks_is_drawn_no_taller_than_two_marks():
    pygame.font.init()
    two = fonts.text("e\u0301\u0301", 20, (0, 0, 0)).get_height()
    piled = fonts.text("e" + "\u0301" * 300 + "x\u0308" + "\u20dd" * 50, 20, (0, 0, 0))
    assert piled.get_height() <= two
    assert fonts.visible("e" + "\u0301" * 300 + "x") == "e\u0301\u0301x"
    assert fonts.visible("Vi\u1ec7t e\u0323\u0302") == "Vi\u1ec7t e\u0323\u0302"   # two marks: kept
    assert fonts.fit_text("\u0301" * 5000, 20, 300) == "\u0301\u0301" + fonts.ELLIPSIS    # cut, and says so


def test_a_name_of_combining_marks_stays_inside_the_window_in_play_and_the_editor(app, tmp_path, monkeypatch):
    labels = watch_text(monkeypatch)
    assert app.open_level(named_level(tmp_path, "e" + "\u0301" * 60_000))
    window = pygame.Rect((0, 0), app.window_size)
    for view in ("play", "editor"):
        if view == "editor":
            app.open_editor()
        labels.clear()
        app.full_redraw = True
        app.draw()
        outside = [rect for _, rect in labels if not window.contains(rect)]
        assert labels and not outside, (view, outside)
