"""The learners' numba kernels: the change of AP for a swap or a move, LambdaMART's sums and
gradients, and the stable descending order of each ranking (public in
:mod:`fastpr.learn.kernels`)."""
