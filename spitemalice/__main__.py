"""``python -m spitemalice``: the same command line as the ``spitemalice`` console script."""

import sys


def entry() -> int:
    """Run the command line (:func:`spitemalice.cli.main`); a Ctrl-C or SIGTERM while the
    commands are still being loaded ends with status 130 and one line, as one during a
    command does, rather than a traceback."""
    try:
        from spitemalice.cli import main
    except KeyboardInterrupt:
        print("spitemalice: interrupted", file=sys.stderr)
        return 130
    return main()


if __name__ == "__main__":
    sys.exit(entry())
