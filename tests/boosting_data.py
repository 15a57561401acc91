"""A stand-in for what the boosting adapters read of an XGBoost DMatrix or a LightGBM Dataset."""


class BoostingData:
    """Labels, query group sizes and weights, as ``get_label`` / ``get_group`` / ``get_weight``
    return them (a DMatrix: empty arrays where there are none; a Dataset: None)."""

    def __init__(self, labels, group, weight):
        self.labels, self.group, self.weight = labels, group, weight

    def get_label(self):
        return self.labels

    def get_group(self):
        return self.group

    def get_weight(self):
        return self.weight
