"""Options declared next to the function that takes them: ``@options(name=constraint, ...)``.

A constraint checks one value and returns it normalised (an ``int`` or ``float`` for numbers),
or raises an :class:`~fastpr.exceptions.InputError` whose message names the argument, the
constraint and the value. A parameter's default is accepted as it is: None there means "not
given" and the function body deals with it.
"""
import functools
import inspect
import math
import numbers

import numpy as np

from .exceptions import InputTypeError, InputValueError


class OneOf:
    """One of the ``allowed`` values (None may be one of them)."""

    def __init__(self, allowed):
        self.allowed = tuple(allowed)

    def check(self, name, value):
        try:
            found = value in self.allowed
        except (TypeError, ValueError):  # an array compared element by element
            found = False
        if not found:
            raise InputValueError("{argument} must be one of {allowed}; got {value!r}.",
                                  argument=name, allowed=", ".join(map(repr, self.allowed)),
                                  value=value)
        return value


def _real(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputTypeError("{argument} must be a real number, got {value!r}.", argument=name,
                             value=value)
    return float(value)


class Interval:
    """A finite real number between ``low`` and ``high`` (None: unbounded on that side);
    ``closed`` says which bounds belong to it: "both", "left", "right" or "neither"."""

    _BRACKETS = {"both": "[]", "left": "[)", "right": "(]", "neither": "()"}

    def __init__(self, low=None, high=None, *, closed="both"):
        self.low, self.high = low, high
        self.low_closed, self.high_closed = closed in ("both", "left"), closed in ("both", "right")
        if low is not None and high is not None:
            kind = {"both": "closed", "neither": "open"}.get(closed, "half-open")
            left, right = self._BRACKETS[closed]
            self.description = f"in the {kind} interval {left}{low}, {high}{right}"
        else:
            bounds = [f"{'>=' if self.low_closed else '>'} {low}" if low is not None else "",
                      f"{'<=' if self.high_closed else '<'} {high}" if high is not None else ""]
            self.description = " and ".join(["finite", *filter(None, bounds)])

    def holds(self, number):
        """Whether ``number`` (a float, or an array of them elementwise) lies in the interval."""
        inside = number == number  # not NaN
        if self.low is not None:
            inside = inside & ((number >= self.low) if self.low_closed else (number > self.low))
        if self.high is not None:
            inside = inside & ((number <= self.high) if self.high_closed
                               else (number < self.high))
        return inside & (abs(number) < math.inf)

    def check(self, name, value):
        number = _real(name, value)
        if not self.holds(number):
            raise InputValueError("{argument} must be {interval}, got {value!r}.", argument=name,
                                  interval=self.description, value=value)
        return number


class Integer:
    """A Python or NumPy integer (not a bool) from ``minimum`` to ``maximum`` (None: no bound)."""

    def __init__(self, minimum=None, maximum=None):
        self.minimum, self.maximum = minimum, maximum

    def check(self, name, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise InputTypeError("{argument} must be an integer, got {value!r}.", argument=name,
                                 value=value)
        for bound, sign, outside in ((self.minimum, ">=", lambda v, b: v < b),
                                     (self.maximum, "<=", lambda v, b: v > b)):
            if bound is not None and outside(value, bound):
                raise InputValueError("{argument} must be {sign} {bound}, got {value!r}.",
                                      argument=name, sign=sign, bound=bound, value=value)
        return int(value)


class InstanceOf:
    """An instance of ``kind``."""

    def __init__(self, kind):
        self.kind = kind

    def check(self, name, value):
        if not isinstance(value, self.kind):
            raise InputTypeError("{argument} must be of type {kind}, got {type}.", argument=name,
                                 kind=self.kind.__name__, type=type(value).__name__)
        return value


class Boolean:
    """A Python or NumPy bool, as a Python bool; where ``text``, a string too (as it is)."""

    def __init__(self, *, text=False):
        self.text = text

    def check(self, name, value):
        if self.text and isinstance(value, str):
            return value
        if not isinstance(value, (bool, np.bool_)):
            raise InputTypeError("{argument} must be True{text} False, got {value!r}.",
                                 argument=name, value=value,
                                 text=", a string or" if self.text else " or")
        return bool(value)


def options(**constraints):
    """Decorate a function (or method) to check the named arguments against their constraints
    on every call, in the order declared, and to pass them on normalised."""

    def decorate(function):
        parameters = inspect.signature(function).parameters
        positional = [name for name, parameter in parameters.items() if parameter.kind in (
            parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)]
        slots = []
        for name, constraint in constraints.items():
            if name not in parameters:
                raise TypeError(f"{function.__qualname__} has no parameter {name!r}.")
            index = positional.index(name) if name in positional else None
            slots.append((name, index, parameters[name].default, constraint))

        @functools.wraps(function)
        def checked(*args, **kwargs):
            for name, index, default, constraint in slots:
                if index is not None and index < len(args):
                    if args[index] is not default:
                        args = (*args[:index], constraint.check(name, args[index]),
                                *args[index + 1:])
                elif name in kwargs and kwargs[name] is not default:
                    kwargs[name] = constraint.check(name, kwargs[name])
            return function(*args, **kwargs)

        checked.options = dict(constraints)
        return checked

    return decorate


def check(function, **values):
    """Check ``values`` against the options that ``function`` declares (before calling it)."""
    for name, value in values.items():
        function.options[name].check(name, value)
