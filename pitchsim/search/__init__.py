"""Search over one position: the position format, the double-dummy solver's entry point, its reference minimax, and hint."""
