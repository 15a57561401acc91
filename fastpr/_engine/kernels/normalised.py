"""Normalised AUC-PR, ``(AUCPR - floor) / (1 - floor)``: the one formula of every path.

The floor is the area that the same estimator gives the worst ranking. When positives far
outweigh negatives it nears 1 (for the interpolated area ``1 - floor = log1p(x) / x`` with
``x = P / N``), and the area and the floor then agree in most of their digits: their difference
holds only the rounding of the two, which dividing by the vanishing ``1 - floor`` would blow up
into any value at all. So the normalised area is reported only where ``1 - floor`` is at least
``MIN_HEADROOM`` = 2**-26: dividing the areas' rounding (a few units of 2**-53) by it leaves at
least half of the 53 bits of a double. Beyond that it is NaN, with an UndefinedMetricWarning
from the public functions.
"""
import math

import numpy as np

from ..jit import shared

MIN_HEADROOM = 2.0**-26


@shared
def normalised_area(area, floor):
    """``(area - floor) / (1 - floor)`` of one area; NaN where either is NaN or the floor leaves
    no room (no negatives: floor 1). A row (``layout``) holds it for the
    interpolated area; Python calls it for the other estimators' floors."""
    headroom = 1.0 - floor
    if headroom >= MIN_HEADROOM:
        return (area - floor) / headroom
    return math.nan


_elementwise = np.vectorize(normalised_area, otypes=[np.float64])


def normalised_areas(areas, floors):
    """:func:`normalised_area` over arrays of areas and floors (of one shape), element by
    element."""
    # Comparing a NaN floor (a ranking without positives) raises the invalid-operation flag,
    # which NumPy would report as a RuntimeWarning although the NaN result is the intended one.
    with np.errstate(invalid="ignore"):
        return _elementwise(areas, floors)


def lacks_headroom(floor):
    """True where the floor leaves less than MIN_HEADROOM below 1 (False where it is NaN)."""
    return 1.0 - np.asarray(floor) < MIN_HEADROOM
