"""Progress bars on stderr (stdout stays clean for --json), only for long runs."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tqdm import tqdm

SHOW_AFTER = 2.0  # seconds: short runs print no bar at all


class Progress:
    """A tqdm bar that appears only once a run has taken ``SHOW_AFTER`` seconds.

    ``total`` may be unknown (None).  Usable as ``with Progress("deals", total) as bar:
    bar.update(k)``.
    """

    def __init__(
        self,
        unit: str,
        total: int | None = None,
        enabled: bool = True,
        desc: str | None = None,
        bar_format: str | None = None,
    ):
        self.unit = unit
        self.total = total
        self.enabled = enabled
        self.desc = desc
        self.bar_format = bar_format  # tqdm's; None: its own, the units scaled (1.2M)
        self.start = time.monotonic()
        self.done = 0
        self.bar: tqdm | None = None

    def update(self, k: int, total: int | None = None) -> None:
        self.done += k
        if total is not None:
            self.total = total
            if self.bar is not None:
                self.bar.total = total
        if not self.enabled:
            return
        if self.bar is None and time.monotonic() - self.start >= SHOW_AFTER:
            from tqdm import tqdm  # only a long run draws a bar

            self.bar = tqdm(
                total=self.total,
                desc=self.desc,
                unit=f" {self.unit}",
                unit_scale=self.bar_format is None,
                bar_format=self.bar_format,
                file=sys.stderr,
                dynamic_ncols=True,
                initial=self.done,
            )
        elif self.bar is not None:
            self.bar.update(k)

    def refresh(self) -> None:
        """Redraw the bar (its elapsed time moves while nothing is done; it appears once
        the run has taken ``SHOW_AFTER``)."""
        if self.bar is None:
            self.update(0)
        else:
            self.bar.refresh()

    def write(self, line: str) -> None:
        """A line on stderr above the bar (the bar is drawn again under it)."""
        if self.bar is None:
            print(line, file=sys.stderr, flush=True)
        else:
            self.bar.write(line, file=sys.stderr)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()
