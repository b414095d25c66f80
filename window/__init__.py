"""The window: the only package that imports pygame.

``app`` owns the loop and the scene state machine; ``scenes/`` holds the scenes (play, the
level browser, the file dialog, the New puzzle dialog), which reach the app only through
``host``. The play scene wires one-job parts: ``player_board`` (the only way the player's board
changes), ``board_input`` (gestures into moves), ``coach`` (hints and checks), ``solver_panel``
with ``solver_watch`` (a solver run on a copy of the board), ``play_view`` with ``board_view``
and ``panel_views`` (drawing, only what changed).
"""

import os

# pygame prints a greeting on import; the command line should stay quiet.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
