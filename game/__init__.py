"""The pure core of Battleship Solitaire: puzzles, the rules, levels and play sessions.

Nothing in this package (outside ``window``) imports pygame, starts threads or imports
``solvers``: it is the vocabulary every other part speaks.
"""
