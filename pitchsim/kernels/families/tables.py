"""The preset tables, for the family kernels: they live in ``kernels/presets.py``, a
layer below ``search/``, whose one double-dummy solver reads every preset's tables."""

from ..presets import *  # noqa: F403
