"""The errors fastpr raises about its input, and the warning about metrics it returns as NaN.

Each error names the argument at fault (``error.argument``) and, where the problem lies at one
entry of an array, its position (``error.position``). Its message is kept as a template, so that
a caller with its own terms for arguments and positions can restate it without parsing text:
the command line names file columns and rows where the library names ``y_score`` and indices.
"""


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the given input (e.g. no positives) and is reported as NaN."""


def _index_or_cell(position):
    if isinstance(position, tuple):
        return f"row {position[0]}, column {position[1]}"
    return f"index {position}"


class InputError(Exception):
    """Bad input to a fastpr function; caught as :class:`InputValueError` or
    :class:`InputTypeError`, which are also ``ValueError`` and ``TypeError``.

    Attributes
    ----------
    argument : str
        The argument at fault, such as ``"y_score"`` or ``"confidence"``.
    other : str or None
        A second argument that the message names (the other of two lengths that differ).
    position : int, tuple of int, or None
        Where in ``argument`` the problem is: an index of 1-D input, (row, column) of 2-D input.
    """

    def __init__(self, template, *, argument, other=None, position=None, **values):
        self.argument, self.other, self.position = argument, other, position
        self._template, self._values = template, values
        super().__init__(self.describe())

    def describe(self, names=None, where=None):
        """The message, each argument called what ``names`` ({argument: text}) calls it and the
        position shown as ``where(position)`` returns it ("index i" or "row r, column c")."""
        names = names or {}
        shown = {"argument": names.get(self.argument, self.argument)}
        if self.other is not None:
            shown["other"] = names.get(self.other, self.other)
        if self.position is not None:
            shown["where"] = (where or _index_or_cell)(self.position)
        return self._template.format(**self._values, **shown)

    def __reduce__(self):  # keyword arguments: for Dask, which pickles a worker's errors
        return _rebuilt, (type(self), self._template, self.argument, self.other, self.position,
                          self._values)


class InputValueError(InputError, ValueError):
    """An argument of the right type holds a value fastpr cannot use."""


class InputTypeError(InputError, TypeError):
    """An argument is of a type (or dtype) that fastpr does not take."""


def _rebuilt(kind, template, argument, other, position, values):
    return kind(template, argument=argument, other=other, position=position, **values)
