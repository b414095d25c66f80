"""Cell by cell: deduce what is certain, then decide each cell in reading order, and backtrack.

A second Python example (the first is what `python main.py new-solver mine.py` writes). It
shows the three colours of the window: forced moves (rows and columns already full, the
water around a hint), guesses, and backtracks. Fine on 6x6 levels, slow beyond.

    python main.py solve levels/6x6/easy/01.bs --solver docs/examples/solvers/cells.py
"""

LABEL = "Cells"
OPTIONS = {"ship_first": True}      # try a ship before water in each cell


def solve(puzzle, report, options):
    rows, cols = puzzle.rows, puzzle.cols
    board = [[None] * cols for _ in range(rows)]        # None unknown, True ship, False water
    fleet = sorted(length for length, count in puzzle.fleet for _ in range(count))
    nodes = 0

    def mark(r, c, ship, kind, depth, detail=""):
        board[r][c] = ship
        report.set(r, c, "ship" if ship else "water", kind, depth, detail)

    # What is certain before any guess: the hints, rows and columns that hold no ship,
    # and the water at the corners of every ship hint (ships never touch).
    for (r, c), hint in puzzle.hints.items():
        board[r][c] = hint != "water"
    for r in range(rows):
        for c in range(cols):
            if board[r][c] is None and (puzzle.row_tallies[r] == 0 or puzzle.col_tallies[c] == 0):
                mark(r, c, False, "forced", 0, "its line holds no ship")
    for (r, c), hint in puzzle.hints.items():
        for y, x in ((r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c + 1)):
            if hint != "water" and 0 <= y < rows and 0 <= x < cols and board[y][x] is None:
                mark(y, x, False, "forced", 0, "diagonal to a ship")

    def line_ok(cells, tally, complete):
        ships = sum(1 for v in cells if v)
        return tally is None or (ships == tally if complete else ships <= tally)

    def at(r, c):
        return 0 <= r < rows and 0 <= c < cols and bool(board[r][c])

    def shape(r, c):
        """The piece a ship cell of the full board shows: what the hints name."""
        up, down, left, right = at(r - 1, c), at(r + 1, c), at(r, c - 1), at(r, c + 1)
        if (up or down) and (left or right):
            return None
        ends = {(False, True, False, False): "top", (True, False, False, False): "bottom",
                (False, False, False, True): "left", (False, False, True, False): "right",
                (False, False, False, False): "sub"}
        return ends.get((up, down, left, right), "middle")

    def finished():
        """The full board keeps the rules the tallies do not: no ships touching at a corner,
        every hint's piece, and the fleet."""
        lengths = []
        for r in range(rows):
            for c in range(cols):
                if not board[r][c]:
                    continue
                if any(at(r + dy, c + dx) for dy in (-1, 1) for dx in (-1, 1)):
                    return False
                hint = puzzle.hints.get((r, c))
                if hint is not None and hint != "ship" and hint != shape(r, c):
                    return False
                if not at(r - 1, c) and not at(r, c - 1):          # the first cell of a ship
                    dy, dx = (0, 1) if at(r, c + 1) else (1, 0)
                    length = 1
                    while at(r + dy * length, c + dx * length):
                        length += 1
                    lengths.append(length)
        return sorted(lengths) == fleet

    def ok(r, c):
        row, col = board[r], [board[y][c] for y in range(rows)]
        return (line_ok(row, puzzle.row_tallies[r], c == cols - 1)
                and line_ok(col, puzzle.col_tallies[c], r == rows - 1))

    def search(index, depth):
        nonlocal nodes
        if index == rows * cols:
            return finished()
        r, c = divmod(index, cols)
        if board[r][c] is not None:                      # given or deduced: check and go on
            return ok(r, c) and search(index + 1, depth)
        for ship in ((True, False) if options["ship_first"] else (False, True)):
            nodes += 1
            if nodes % 2000 == 0:
                report.progress(nodes=nodes)
            mark(r, c, ship, "guess", depth + 1, f"try {'ship' if ship else 'water'}")
            if ok(r, c) and search(index + 1, depth + 1):
                return True
            board[r][c] = None
            report.set(r, c, "unknown", "backtrack", depth)
        return False

    if not search(0, 0):
        return None
    report.progress(nodes=nodes)
    return ["".join("#" if v else "." for v in line) for line in board]
