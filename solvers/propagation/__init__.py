"""The game's rules as propagators: one statement of each, run by every exact search.

``model`` compiles a puzzle to bitboards (Python ints: the placement model of
``game.ships`` with the search state); ``rules`` holds the rules, their table (name, place
in the order, the sentence a logged step says) and the driver that runs them to a fixpoint,
with a log of what fired when asked and the same conclusions either way. The referee that
judges a finished board (``game.rules``) and the clause learner's clauses
(``solvers.search.learning``) stay apart on purpose: an independent checker, and another
encoding for another algorithm.
"""

from game.compiled import engine, use_source

use_source(__name__)
ENGINE = engine()
"""How the engine runs here: "compiled" (ahead of time, from this very source) or "python"."""
