"""Pure search and deduction: no pygame, no settings files, threads only in ``engine.runner``.

Layers, each using only those before it:
- ``events``, ``contract``, ``common``: what a solver yields, how it is declared and called,
  and the judge's check of its answer;
- ``search``, ``logic``, ``genetic``: the solvers themselves, each a generator of events;
- ``engine``: the registry, the one verdict (``decide``), the runner and batch runs;
- ``authoring``: grades, redundant hints and the level generator.
"""
