"""The window: the only package that imports pygame.

``app`` owns the loop and the scene state machine; ``scene_play`` (the board and its panels),
``scene_browser`` (the level pack) and ``scene_files`` (open a file) are the scenes; the
``*_view`` modules only draw; ``solver_watch`` paces a solver run onto a copy of the board.
"""

import os

# pygame prints a greeting on import; the command line should stay quiet.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
