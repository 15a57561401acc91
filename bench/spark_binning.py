#!/usr/bin/env python
"""Spark's area under the PR curve next to fastpr's, and where ``numBins`` moves it (not in CI).

10^5 rows (0.5% positives, ``score = sigmoid(normal + 2.2 y)``, every score distinct), made with
NumPy from a seed and put in a DataFrame of one partition. Prints Spark's
``BinaryClassificationEvaluator(metricName="areaUnderPR")`` with its default ``numBins=1000`` and
with ``numBins=0``, ``mllib``'s ``BinaryClassificationMetrics``, fastpr's estimators, and the
same binned and unbinned areas recomputed from fastpr's exact counts by the rule of Spark's
``BinaryClassificationMetrics`` (see ``binned_area``), to show that the rule explains them.

    python bench/spark_binning.py
    python bench/spark_binning.py --rows 1M --partitions 4 --separation 1.5
"""
import argparse
import os
import sys
import warnings

import numpy as np
import pandas as pd

import fastpr
import fastpr.spark


def binned_area(y, s, num_bins, partition_ends=None, only_first=False):
    """Spark's areaUnderPR from the exact counts, by the rule of BinaryClassificationMetrics.

    Spark sorts the distinct scores from the highest down with their positive and negative
    counts. With ``numBins > 0`` it sets ``grouping = distinct // numBins`` (integer division);
    where that is 2 or more, every partition of the sorted scores is cut into chunks of
    ``grouping`` consecutive distinct scores (the last chunk of each partition may be shorter),
    and each chunk becomes one point at its lowest score with the chunk's counts added up:
    the curve keeps the operating points at the chunks' ends and drops those in between. The PR
    curve is then (recall, precision) at each kept point, with (0, precision of the first kept
    point) put in front, and the area is the trapezoid rule over it: straight lines.

    ``partition_ends``: the number of distinct scores in each partition of Spark's sorted
    scores, when there are several (the chunks restart in each). ``only_first``: bin the first
    chunk only and keep every point after it, to measure what the first chunk alone costs.
    """
    accumulator = fastpr.Accumulator().update(y, s)
    _, pos, neg = (array[::-1].astype(np.float64) for array in accumulator.to_arrays())
    tp, fp = np.cumsum(pos), np.cumsum(neg)
    n = pos.size
    grouping = n // num_bins if num_bins else 0
    if grouping >= 2:
        sizes = [n] if partition_ends is None else partition_ends
        starts = np.cumsum([0, *sizes[:-1]])
        kept = np.concatenate([np.r_[np.arange(start + grouping - 1, start + size, grouping),
                                     start + size - 1] for start, size in zip(starts, sizes)])
        kept = np.unique(kept)
        if only_first:
            kept = np.arange(grouping - 1, n)
        tp, fp = tp[kept], fp[kept]
    recall, precision = tp / tp[-1], tp / (tp + fp)
    x, y_ = np.r_[0.0, recall], np.r_[precision[0], precision]
    return float(np.sum(np.diff(x) * (y_[1:] + y_[:-1]) / 2)), grouping


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="100K")
    parser.add_argument("--positives", type=float, default=0.005)
    parser.add_argument("--separation", type=float, default=2.2)
    parser.add_argument("--partitions", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    text = args.rows.upper()
    n = int(float(text.rstrip("KM")) * {"K": 10**3, "M": 10**6}.get(text[-1], 1))
    rng = np.random.default_rng(args.seed)
    y = (rng.random(n) < args.positives).astype(np.float64)
    s = 1 / (1 + np.exp(-(rng.normal(size=n) + args.separation * y)))

    warnings.simplefilter("ignore", FutureWarning)  # PySpark on pandas 3
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.mllib.evaluation import BinaryClassificationMetrics
    from pyspark.sql import SparkSession
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.createDataFrame(pd.DataFrame({"y": y, "s": s})).repartition(args.partitions)
    df = df.sortWithinPartitions("s").cache()
    df.count()

    def spark_area(num_bins):
        return BinaryClassificationEvaluator(rawPredictionCol="s", labelCol="y",
                                             metricName="areaUnderPR",
                                             numBins=num_bins).evaluate(df)

    mllib = BinaryClassificationMetrics(df.select("s", "y").rdd.map(tuple)).areaUnderPR
    ours = fastpr.spark.evaluate(df, label="y", score="s")
    print(f"{n} rows, {int(y.sum())} positives, {ours.n_thresholds} distinct scores, "
          f"{args.partitions} partition(s), pyspark {spark.version}")
    for bins in (1000, 0):
        area = spark_area(bins)
        ends = None
        if args.partitions > 1:
            print("  (several partitions: chunks restart in each of Spark's sorted partitions; "
                  "the recomputation below assumes one)")
        again, grouping = binned_area(y, s, bins, ends)
        print(f"Spark areaUnderPR numBins={bins:<5} {area:.6f}   recomputed from the exact "
              f"counts {again:.6f} (grouping {grouping})")
    print(f"mllib BinaryClassificationMetrics  {mllib:.6f}")
    for field in ("auc_pr", "average_precision", "auc_pr_linear", "auc_pr_dg"):
        print(f"fastpr.spark {field:<22}{getattr(ours, field):.6f}")
    expected = fastpr.evaluate(y, s)
    print("fastpr.spark.evaluate == fastpr.evaluate on the collected rows:",
          all(np.isclose(getattr(ours, k), v, rtol=1e-12, atol=1e-14) or v != v
              for k, v in expected.to_dict().items()))
    # Where the binned area loses: the first chunk alone, then every chunk after it.
    accumulator = fastpr.Accumulator().update(y, s)
    top_pos = accumulator.to_arrays()[1][::-1]
    grouping = ours.n_thresholds // 1000
    first, _ = binned_area(y, s, 1000, only_first=True)
    print(f"the first chunk: the top {grouping} scores hold {int(top_pos[:grouping].sum())} of "
          f"{int(y.sum())} positives; binning it alone gives {first:.6f} "
          f"({first - ours.auc_pr_linear:+.6f})")
    spark.stop()


if __name__ == "__main__":
    main()
