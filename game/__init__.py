"""The pure core of Battleship Solitaire: puzzles, the rules, levels and play sessions.

Nothing in this package (outside ``window``) imports pygame, starts threads or imports
``solvers``: it is the vocabulary every other part speaks.
"""

from game.compiled import use_source

use_source(__name__)      # (``game.bitsets`` is compiled with the propagation engine)
