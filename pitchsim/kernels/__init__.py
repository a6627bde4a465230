"""Numba kernels: dealing, the trick loop and scoring, play policies, batch loops.

Every kernel is compiled with ``cache=True``; the plain-Python reference engine in
``pitchsim.reference`` is the specification they are tested against.
"""
