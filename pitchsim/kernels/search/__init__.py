"""Search: the double-dummy solver (``solver``) and what is built on it.

``solver.solve_position`` / ``solver.card_values`` are the entry points; see that
module's docstring.
"""
