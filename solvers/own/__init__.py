"""Your own solver: a Python file, an installed package or any program, run beside ours.

A solver of your own runs in a process of its own, so that Stop ends it at once even when it
never pauses, and its memory, time and output are bounded. It tells what it does in the
lines of the trace format (one JSON object per line, see ``solvers.engine.trace``); every
line passes one contract checker (``check``) before it becomes an event, and its answer is
judged by the rules like every solver's.

- ``spec``: a solver named by a path (``mine.py``), a command (``cmd:./mine --fast``) or an
  installed package's entry point (group ``battleships.solvers``), as a ``SolverSpec``;
- ``process``: the run: the level on the child's standard input, its lines read back;
- ``check``: the contract checker, which the built-in solvers' events pass as well;
- ``child``: what runs inside the process for a Python solver (the ``solve`` API);
- ``template``: the skeleton ``main.py new-solver`` writes.
"""
