"""The only place with threads: drive a solver's event stream in a worker thread.

The worker pulls events from the solver's generator and puts them on a *bounded* queue, so a
fast solver waits for a slow animation instead of filling memory. ``stop()`` sets an event
the worker checks between events and while waiting for room on the queue; solvers yield at
least every few milliseconds, so a stop takes effect well within 0.2 s. The generator is
closed in the worker thread (a generator may only be closed by the thread running it). An
exception inside the solver becomes a :class:`Failure` event; the end of the stream is
marked by a sentinel that ``poll`` consumes and turns into ``finished``. Work that runs share
(a level's placement tables, which every solver of the level reads) can be given as
``prepare``: it is done before the stream, by one worker at a time, so two runs started
together do not each build a copy of it.

    with SolverRun(lambda: forward.events(puzzle)) as run:
        while not run.finished:
            for event in run.poll(100): ...
"""

from __future__ import annotations

import queue
import threading
import traceback
from typing import Callable, Generic, Iterator, TypeVar

from solvers.events import Failure

_END = object()
Item = TypeVar("Item")      # what the stream yields: a solver's events, or a window's own work's results
_PUT_WAIT = 0.02
_PREPARING = threading.Lock()   # held by the worker doing its ``prepare`` work (one at a time)
_WORKER = threading.local()     # in a worker thread: ``stop``, its run's stop event


def stop_asked() -> bool:
    """Whether the run this thread is the worker of was asked to stop (False outside a
    worker): for a solver's work that runs long between two events, such as a search it
    asks for, to end with the run."""
    stop = getattr(_WORKER, "stop", None)
    return stop is not None and stop.is_set()


class SolverRun(Generic[Item]):
    """A solver running in a daemon worker thread, read through a bounded queue."""

    def __init__(self, make_stream: Callable[[], Iterator[Item]], maxsize: int = 1024,
                 name: str = "solver", prepare: Callable[[], Iterator[object]] | None = None) -> None:
        """``prepare``: work shared with other runs, in slices (``game.slices``), done before
        the stream while no other worker does its own: a run that needs what another is
        building waits for it and then finds it built. A stop ends the wait and the work
        between two slices."""
        self._make_stream = make_stream
        self._prepare = prepare
        self._queue: queue.Queue = queue.Queue(maxsize=max(1, maxsize))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._finished = False
        self._started = False

    # ---------------------------------------------------------------- worker side

    def _put(self, item: object) -> bool:
        """Put one item, waiting for room; False if a stop came first."""
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=_PUT_WAIT)
                return True
            except queue.Full:
                continue
        return False

    def _prepared(self) -> bool:
        """Do the ``prepare`` work, waiting for any other worker's first; False if a stop came first."""
        if self._prepare is None:
            return True
        while not _PREPARING.acquire(timeout=_PUT_WAIT):
            if self._stop.is_set():
                return False
        try:
            work = self._prepare()
            try:
                for _ in work:
                    if self._stop.is_set():
                        return False
            finally:
                close = getattr(work, "close", None)
                if close is not None:
                    close()
        finally:
            _PREPARING.release()
        return not self._stop.is_set()

    def _work(self) -> None:
        stream: Iterator[Item] | None = None
        _WORKER.stop = self._stop
        try:
            if not self._prepared():
                return
            stream = self._make_stream()
            for event in stream:
                if not self._put(event):
                    break
        except Exception as error:  # noqa: BLE001 - any solver bug must reach the consumer
            detail = "".join(traceback.format_exception_only(type(error), error)).strip()
            self._put(Failure(f"solver failed: {detail}"))
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # noqa: BLE001 - closing must never mask the run's outcome
                    pass
            self._put_end()

    def _put_end(self) -> None:
        if self._put(_END):
            return
        # Stopped: nobody wants the pending events any more, but the end marker must arrive.
        while True:
            try:
                self._queue.put_nowait(_END)
                return
            except queue.Full:
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    pass

    # ---------------------------------------------------------------- consumer side

    def start(self) -> SolverRun[Item]:
        if not self._started:
            self._started = True
            self._thread.start()
        return self

    def poll(self, max_events: int = 256) -> list[Item | Failure]:
        """Up to ``max_events`` events that are ready now; never blocks.

        They are taken under one hold of the queue's lock, and a waiting worker is woken once
        for the lot: taken one by one, each would wake the worker to put one more, and the two
        threads would hand the interpreter back and forth for every event."""
        if self._finished:
            return []
        waiting = self._queue
        with waiting.mutex:
            items = waiting.queue
            batch = [items.popleft() for _ in range(min(max_events, len(items)))]
            if batch:
                waiting.not_full.notify()
        if batch and batch[-1] is _END:
            self._finished = True
            batch.pop()
        return batch

    @property
    def finished(self) -> bool:
        """True once the end marker has been read (everything before it was handed out)."""
        return self._finished

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stopping(self) -> bool:
        """Whether a stop was asked: for work that runs long between events to ask itself."""
        return self._stop.is_set()

    def stop(self, timeout: float = 0.2) -> bool:
        """Ask the solver to stop and wait up to ``timeout`` s; True if the worker ended."""
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)
        if not self._thread.is_alive():
            self._discard_pending()
        return not self._thread.is_alive()

    def _discard_pending(self) -> None:
        while not self._finished:
            try:
                if self._queue.get_nowait() is _END:
                    self._finished = True
            except queue.Empty:
                self._finished = True

    def __enter__(self) -> SolverRun[Item]:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()
