"""Weights in the learner's computations: none per example, one per ranking."""
from .. import _validation
from ..exceptions import InputValueError


def refuse_sample_weight(sample_weight, what):
    """Refuse per-example weights where ``what`` does not define them."""
    if sample_weight is not None:
        raise InputValueError("{argument} is not defined for {what}: a change of average "
                              "precision counts examples by their positions, not by weight. "
                              "Weigh whole rankings with group_weight where it is offered.",
                              argument="sample_weight", what=what)


def group_weights(group_weight, n_groups):
    """One weight per ranking as float64, finite and >= 0, not all 0."""
    array = _validation.as_1d("group_weight", group_weight)
    if array.shape[0] != n_groups:
        raise InputValueError("{argument} must hold one weight per group ({n_groups}), got "
                              "{size}.", argument="group_weight", n_groups=n_groups,
                              size=array.shape[0])
    array = _validation.nonnegative("group_weight", array)
    if not array.any():
        raise InputValueError("{argument} is zero everywhere, so every gradient would be 0.",
                              argument="group_weight")
    return array
