"""A solver of one's own that is a built-in solver in disguise: it runs the solver named by
its option ``solver`` (an index into the built-in names) inside its own process and reports
each of its moves through ``report``, so that ``bench --boundary`` can measure what the
process boundary costs per event, the same events on both sides of it."""

OPTIONS = {"solver": 0}


def solve(puzzle, report, options):
    from solvers.engine import registry
    from solvers.events import Result, SetCell

    name = registry.NAMES[int(options["solver"])]
    cell = report.set
    for event in registry.get(name).events(puzzle, trace=True):
        if type(event) is SetCell:
            cell(event.row, event.col, ("unknown", "water", "ship")[event.value], event.reason.value, event.depth,
                 event.detail)
        elif isinstance(event, Result):
            return ["".join(".#"[value == 2] for value in row) for row in event.grid] if event.grid else None
    return None
