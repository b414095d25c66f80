"""Shared test helpers: the corpus beside the checkout (tests skip when it is absent)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session", autouse=True)
def compiled_code():
    """The clause learner compiled (or loaded from numba's cache) before any test times a race."""
    from solvers.search import learning

    learning.warm_up()


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("the shared puzzle corpus is not beside this checkout")
    return CORPUS


@pytest.fixture(autouse=True)
def private_user_folder(tmp_path_factory, monkeypatch):
    """Tests never read the user's settings or write to the user's progress folder."""
    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path_factory.mktemp("user")))


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The window, headless, on the built-in first level (for the tests/test_ui_*.py files)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from window.app import DEFAULT_LEVEL, App

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    window = App(window=(1100, 720))
    assert window.open_level(DEFAULT_LEVEL)
    window.pump()
    yield window
    if pygame.display.get_init():
        window.shutdown()


def watch_text(monkeypatch, only=None) -> list:
    """Every label the window draws from now on (on the surface ``only``, when given, or the
    one ``only()`` gives at the time: the window's, which a resize replaces), as (text, rect):
    ``window.fonts.blit_text`` watched."""
    from window import fonts

    drawn = []
    blit_text = fonts.blit_text

    def watched(surface, content, *args, **kwargs):
        rect = blit_text(surface, content, *args, **kwargs)
        if only is None or surface is (only() if callable(only) else only):
            drawn.append((content, rect))
        return rect

    monkeypatch.setattr(fonts, "blit_text", watched)
    return drawn


def slow_table_builds(monkeypatch) -> list:
    """Every build of a level's placement table from now on, as (table, id of its geometry,
    thread), each built in slices slow enough for the window's workers to meet; no table built
    by an earlier test is left."""
    import threading
    import time

    from game import ships

    monkeypatch.setattr(ships, "_geometries", {})
    builds = []
    for name in ships.TABLES:
        build = getattr(ships.Geometry, "_" + name)

        def slowly(geo, build=build, name=name):
            builds.append((name, id(geo), threading.current_thread().name))
            work = build(geo)
            try:
                while True:
                    next(work)
                    time.sleep(0.0005)
                    yield
            except StopIteration as done:
                return done.value
        monkeypatch.setattr(ships.Geometry, "_" + name, slowly)
    return builds


def resize(app, size, kinds=None):
    """The window made ``size`` as the system makes it: the display's new surface, then its
    events (``kinds``: the event types posted, VIDEORESIZE alone unless given), one frame."""
    import pygame

    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    for kind in kinds or (pygame.VIDEORESIZE,):
        if kind == pygame.VIDEORESIZE:
            pygame.event.post(pygame.event.Event(kind, size=size, w=size[0], h=size[1]))
        else:
            pygame.event.post(pygame.event.Event(kind, x=size[0], y=size[1]))
    app.pump()


def wait_until(done, seconds: float = 5.0, between=None, pause: float = 0.005):
    """Wait for a worker thread to bring ``done()`` about, at most ``seconds``, calling
    ``between()`` (the window's frame, say) and sleeping ``pause`` between two looks; the last
    answer of ``done()``."""
    import time

    deadline = time.perf_counter() + seconds
    while not done() and time.perf_counter() < deadline:
        if between is not None:
            between()
        time.sleep(pause)
    return done()


def run_to_the_end(app, solver: str | None = None, seconds: float = 30.0):
    """The play's solver (``solver`` chosen first, when given) run at full speed in the window,
    frame by frame, until its run ends or ``seconds`` pass; its watch."""
    panel = app.play.solver
    if solver is not None:
        panel.choose(solver)
    panel.set_speed(0)
    assert panel.start()
    wait_until(lambda: panel.watch.finished, seconds, app.pump, 0.001)
    return panel.watch
