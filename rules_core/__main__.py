"""``python -m rules_core``: the command line referee (see :mod:`rules_core.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
