"""The documented limits on what the program reads.

Every reader checks its input against these numbers and refuses, naming the file and the
limit, what lies beyond them. They are set so that no input within them makes any command or
the window use more than about 1 GB or take more than a few seconds before it answers or
refuses (docs/guide/benchmarks.md, "Limits", gives the measurements behind each).
"""

MAX_SIDE = 60               # rows and columns of a board
MAX_SHIP_LENGTH = 10        # the longest ship in a fleet
MAX_FLEET_SHIPS = 200       # ships in a fleet
MAX_FILE_BYTES = 1_000_000  # a level, a corpus line, a per-user file
MAX_DRAFT_BYTES = 2 * MAX_FILE_BYTES    # the editor's kept draft: a level and its board written out
MAX_NESTING = 32            # JSON/YAML nesting depth
MAX_DIGITS = 12             # digits in any number
MAX_TRACE_TEXT = 1_000      # characters of a trace's solver name, an event's detail or message, a statistic
MAX_TRACE_STATS = 256       # statistics on one line of a trace
MAX_SECONDS = 1_000_000     # a time limit given on the command line (about 11 days)
