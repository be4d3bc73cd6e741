"""``python -m spitemalice``: the same command line as the ``spitemalice`` console script."""

import sys

from spitemalice.cli import main

if __name__ == "__main__":
    sys.exit(main())
