"""Settings: the schema (types, ranges), bounded parsing, one line per bad key, defaults kept."""

import os
import time

import pytest

from window import settings


def load_text(tmp_path, text):
    path = tmp_path / "settings.yaml"
    path.write_text(text)
    before = path.read_bytes()
    result = settings.load(path)
    assert path.read_bytes() == before              # the user's file is never rewritten
    return result


def test_a_settings_file_may_ask_for_the_smallest_window_the_scenes_lay_out_for(tmp_path):
    # The settings refused below 640x480 while the window lays out down to 480x360 and may be
    # made that small: one smallest size for both.
    values, problems = load_text(tmp_path, "ui:\n  window: [480, 360]\n")
    assert problems == [] and values["ui"]["window"] == [480, 360]


def test_good_overrides_are_used(tmp_path):
    values, problems = load_text(tmp_path, "ui:\n  theme: dark\n  window: [900, 700]\ngenetic:\n  population: 40\n")
    assert problems == []
    assert values["ui"]["theme"] == "dark" and values["ui"]["window"] == [900, 700]
    assert values["genetic"]["population"] == 40 and values["genetic"]["elite"] == 0.05


@pytest.mark.parametrize("text, key", [
    ("ui:\n  window: []\n", "ui.window"),
    ("ui:\n  window: [30000, 30000]\n", "ui.window"),
    ("ui:\n  window: [800, true]\n", "ui.window"),
    ("ui:\n  window: 800\n", "ui.window"),
    ("ui:\n  window: [479, 360]\n", "ui.window"),
    ("ui:\n  window: [480, 359]\n", "ui.window"),
    ("ui:\n  fps: 0\n", "ui.fps"),
    ("ui:\n  fps: .nan\n", "ui.fps"),
    ("ui:\n  speed: -1\n", "ui.speed"),
    ("ui:\n  theme: [dark]\n", "ui.theme"),
    ("ui:\n  solver: quantum\n", "ui.solver"),
    ("ui:\n  seed: 1.5\n", "ui.seed"),
    ("genetic:\n  population: 100000\n", "genetic.population"),
    ("genetic:\n  elite: yes\n", "genetic.elite"),
])
def test_each_bad_key_is_reported_and_gets_its_default(tmp_path, text, key):
    values, problems = load_text(tmp_path, text)
    [problem] = problems
    assert problem.startswith(f"{tmp_path / 'settings.yaml'}: {key}:") and "\n" not in problem
    assert values == settings.defaults()


def test_one_line_per_bad_key_and_the_good_ones_kept(tmp_path):
    values, problems = load_text(tmp_path, "ui:\n  window: []\n  theme: dark\n  fps: many\n  colour: red\n"
                                           "genetic: 5\nsound: {}\n")
    assert len(problems) == 5
    assert values["ui"]["theme"] == "dark" and values["ui"]["window"] == [1200, 820]
    assert values["genetic"] == settings.defaults()["genetic"]


def test_alias_bomb_is_refused_quickly(tmp_path):
    lines = ["a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    for name, before in zip("bcdefghi", "abcdefgh"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{before}"] * 9) + "]")
    start = time.perf_counter()
    values, [problem] = load_text(tmp_path, "\n".join(lines) + "\n")
    assert "aliases" in problem and values == settings.defaults()
    assert time.perf_counter() - start < 5          # loose: unbounded, this takes about a minute


@pytest.mark.parametrize("text, words", [
    ("[" * 100_000, "nested"),
    ("ui:\n  seed: " + "9" * 5000 + "\n", "digits"),
    ("ui: !!python/object/apply:os.system [echo]\n", "YAML"),
    ("ui: [unclosed\n", "YAML"),
    ("- a list\n", "mapping"),
    ("x: 1\n---\ny: 2\n", "document"),
])
def test_unreadable_files_give_one_line_and_the_defaults(tmp_path, text, words):
    values, [problem] = load_text(tmp_path, text)
    assert words in problem and str(tmp_path / "settings.yaml") in problem
    assert values == settings.defaults()


def test_size_is_bounded_before_parsing(tmp_path, monkeypatch):
    monkeypatch.setattr(settings, "MAX_FILE_BYTES", 100)
    values, [problem] = load_text(tmp_path, "ui:\n  theme: dark\n" + "# padding\n" * 20)
    assert "bytes" in problem and values == settings.defaults()


def test_bad_bytes_and_folders(tmp_path):
    (tmp_path / "settings.yaml").write_bytes(b"ui:\n  theme: \xff\n")
    assert "UTF-8" in settings.load(tmp_path / "settings.yaml")[1][0]
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    assert "regular file" in settings.load(folder)[1][0]


def open_window(tmp_path, monkeypatch, text):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from window import app as app_module

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    path = tmp_path / "settings.yaml"
    path.write_text(text)
    return app_module.App(settings_path=path)


def test_window_opens_within_the_display_whatever_the_setting(tmp_path, monkeypatch):
    import pygame

    window = open_window(tmp_path, monkeypatch, "ui:\n  window: [7000, 4000]\n")
    try:
        desktop = pygame.display.get_desktop_sizes()[0]
        width, height = window.window_size
        assert width <= max(desktop[0], 1200) and height <= max(desktop[1], 820)
    finally:
        window.shutdown()


def test_window_reports_bad_keys_and_opens_at_the_default_size(tmp_path, monkeypatch):
    from window.app import DEFAULT_LEVEL

    window = open_window(tmp_path, monkeypatch, "ui:\n  window: []\n  theme: 7\n")
    try:
        assert window.window_size == (1200, 820)
        assert window.open_level(DEFAULT_LEVEL)
        assert "ui.window" in window.play.message and "ui.theme" in window.play.message
    finally:
        window.shutdown()


@pytest.mark.skipif(os.name == "nt", reason="XDG folders are not used on Windows")
def test_a_relative_xdg_data_home_is_ignored_not_taken_from_the_working_folder(tmp_path, monkeypatch):
    # The XDG spec: a relative path is invalid. Taken as it is, the records would be in a
    # different folder for each folder the program is started from.
    monkeypatch.delenv("BATTLESHIPS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", "data")
    assert settings.user_dir() == tmp_path / "home" / ".local" / "share" / "battleships"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert settings.user_dir() == tmp_path / "xdg" / "battleships"
