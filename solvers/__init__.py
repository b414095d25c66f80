"""Pure search and deduction: no pygame, no settings files, threads only in ``engine.runner``.

Layers, each using only those before it:
- ``events``, ``contract``, ``common``, ``compiling``: what a solver yields, how it is
  declared and called, the judge's check of its answer, and compiled code that never makes
  a run wait;
- ``propagation``: the game's rules as propagators, stated once, run by the exact searches;
- ``search``, ``logic``, ``genetic``: the solvers themselves, each a generator of events;
- ``engine``: the registry, the one verdict (``decide``), the runner and batch runs;
- ``authoring``: grades, redundant hints and the level generator.
"""
