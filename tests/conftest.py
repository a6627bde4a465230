"""Suite-wide settings.

The cold-cache compile notice goes to stderr by default; many tests check that stderr
is empty or holds exactly one error line, so the suite silences it (subprocesses
inherit this).  tests/test_readme.py turns it on where it checks the notice itself.
"""

import os

os.environ["PITCHSIM_COMPILE_NOTICE"] = "0"
