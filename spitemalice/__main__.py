"""``python -m spitemalice``: the same command line as the ``spitemalice`` console script."""

import sys


def entry() -> int:
    """Run the command line (:func:`spitemalice.cli.main`); a Ctrl-C or SIGTERM while the
    commands are still being loaded or parsed (a command's modules load only then) ends with
    status 130 and one line, as one during a command does, rather than a traceback."""
    try:
        from spitemalice.cli import main

        return main()
    except KeyboardInterrupt:
        print("spitemalice: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(entry())
