"""What every command line of the project shares: a closed pipe ends it quietly.

``python -m refml tour | head -3`` closes the pipe while the tour still prints; Python
would then end with a BrokenPipeError traceback.  ``run`` ends such a command at once, with
exit status 1 and nothing on stderr (the way Python's documentation recommends).
"""

import os
import sys


def run(main, argv=None):
    """``main(argv)``'s exit status, or 1 without a traceback when stdout was closed."""
    try:
        status = main(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at devnull so that it cannot fail.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
