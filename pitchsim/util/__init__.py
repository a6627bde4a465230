"""Small tools every layer uses: errors, limits, atomic files, direct I/O, threads and seeds, statistics."""
