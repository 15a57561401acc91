"""Shared behaviour of the frozen result dataclasses: ``to_dict`` and a readable ``repr``."""
import dataclasses

import numpy as np


def _plain(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if dataclasses.is_dataclass(value):
        return value.to_dict()
    return value


def _short(value):
    if isinstance(value, np.ndarray):
        return f"array(shape={value.shape}, dtype={value.dtype})"
    if isinstance(value, float):
        return f"{value:.6g}"
    return repr(value)


class Result:
    """Mixin for frozen dataclasses of scalars and arrays."""

    def to_dict(self):
        """Fields as plain Python values (arrays become lists), ready for JSON."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def __repr__(self):
        fields = dataclasses.fields(self)
        body = ", ".join(f"{f.name}={_short(getattr(self, f.name))}" for f in fields)
        return f"{type(self).__name__}({body})"
