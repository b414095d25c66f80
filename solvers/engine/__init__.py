"""The plumbing that runs solvers: the registry, the one verdict, the thread runner, batches.

``registry`` lists the solvers; ``verdict.decide`` answers impossible / unique / ambiguous /
undecided (racing searches on several cores through ``portfolio`` when asked); ``runner``
is the only place with threads; ``batch`` runs solvers over files for the command line.
"""
