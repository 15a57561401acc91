#!/usr/bin/env python
"""Exact evaluation on Spark against Spark's own evaluator, in the same run (not in CI).

A cached DataFrame generated inside Spark (no data through the driver): ``y = u < 0.5%``,
``score = sigmoid(normal + 1.5 y)``, either nearly every score distinct ("many") or rounded to 3
decimals, about a thousand distinct scores ("few"). For each, interleaved repeats time
``fastpr.spark.evaluate`` and ``BinaryClassificationEvaluator(metricName="areaUnderPR")`` with
its default ``numBins=1000``; medians are printed with their ratio. With ``--check``, the
result is compared with ``fastpr.evaluate`` on the collected columns (and Spark's area with
fastpr's ``auc_pr_linear``).

With ``--models K``, the table holds K score columns (each from its own normal draw) and the
repeats time one ``fastpr.spark.evaluate(score=[...])`` of all K against a Python loop of K
single-column calls, for each strategy given by ``--strategies``.

    python bench/spark.py                              # 3M and 10M rows, local[2]
    python bench/spark.py --sizes 3M --repeats 5 --check
    python bench/spark.py --sizes 3M --models 3 --strategies auto,ranges
"""
import argparse
import math
import os
import statistics
import sys
import time
import warnings

import fastpr
import fastpr.spark


def _rows(text):
    text = text.strip().upper()
    scale = {"K": 10**3, "M": 10**6}.get(text[-1], 1)
    return int(float(text.rstrip("KM")) * scale)


def session(master, memory):
    from pyspark.sql import SparkSession
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (SparkSession.builder.master(master).appName("fastpr-bench")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", memory)
             .config("spark.sql.shuffle.partitions", "4")
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def table(spark, n, kind, partitions, seed=0, models=1):
    """The cached DataFrame (y double, s double) of ``n`` rows; ``kind`` "few" or "many"; with
    ``models`` > 1, score columns s0, s1, ... instead of s."""
    from pyspark.sql import functions as F
    y = (F.rand(seed) < 0.005).cast("double")
    names = ["s"] if models == 1 else [f"s{k}" for k in range(models)]
    scores = [1 / (1 + F.exp(-(F.randn(seed + 1 + k) + 1.5 * F.col("y")))) for k in range(models)]
    df = spark.range(0, n, numPartitions=partitions).select(y.alias("y")).select(
        "y", *[score.alias(name) for score, name in zip(scores, names)])
    if kind == "few":
        df = df.select("y", *[F.round(name, 3).alias(name) for name in names])
    df = df.cache()
    df.count()
    return df


def timed(call):
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="3M,10M")
    parser.add_argument("--kinds", default="few,many")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--memory", default="3g", help="spark.driver.memory (local mode)")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--models", type=int, default=1,
                        help="K > 1: time score=[K columns] against a loop of K calls")
    parser.add_argument("--strategies", default="auto", help="with --models")
    args = parser.parse_args()
    warnings.simplefilter("ignore", FutureWarning)  # PySpark on pandas 3
    if args.models > 1:
        return models(args)
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    spark = session(args.master, args.memory)
    spark_pr = BinaryClassificationEvaluator(rawPredictionCol="s", labelCol="y",
                                             metricName="areaUnderPR")
    print(f"fastpr {fastpr.__version__}, pyspark {spark.version}, {args.master}, "
          f"{args.partitions} partitions, medians of {args.repeats}")
    print(f"{'rows':>6} {'scores':>6} {'distinct':>9} {'fastpr.spark':>13} "
          f"{'Spark areaUnderPR':>18} {'ratio':>6}")
    for n in map(_rows, args.sizes.split(",")):
        for kind in args.kinds.split(","):
            df = table(spark, n, kind, args.partitions)
            ours, theirs = [], []
            for _ in range(args.repeats):
                elapsed, result = timed(lambda: fastpr.spark.evaluate(df, label="y", score="s"))
                ours.append(elapsed)
                elapsed, area = timed(lambda: spark_pr.evaluate(df))
                theirs.append(elapsed)
            distinct = fastpr.spark.accumulate(df, label="y", score="s").n_distinct if (
                kind == "few") else "~all"
            a, b = statistics.median(ours), statistics.median(theirs)
            print(f"{n:>6.0e} {kind:>6} {distinct!s:>9} {a:>12.2f}s {b:>17.2f}s {a / b:>6.2f}",
                  flush=True)
            if args.check:
                check(df, result, area)
            df.unpersist()
    spark.stop()


def models(args):
    """score=[K columns] against a Python loop of K single-column calls, interleaved."""
    spark = session(args.master, args.memory)
    print(f"fastpr {fastpr.__version__}, pyspark {spark.version}, {args.master}, "
          f"{args.partitions} partitions, {args.models} models, medians of {args.repeats}, "
          f"load average {os.getloadavg()[0]:.2f} at the start")
    print(f"{'rows':>6} {'scores':>6} {'strategy':>8} {'score=[...]':>12} {'loop':>8} "
          f"{'ratio':>6}")
    names = [f"s{k}" for k in range(args.models)]
    for n in map(_rows, args.sizes.split(",")):
        for kind in args.kinds.split(","):
            df = table(spark, n, kind, args.partitions, models=args.models)
            for strategy in args.strategies.split(","):
                together, loop = [], []
                for _ in range(args.repeats):
                    elapsed, batch = timed(lambda: fastpr.spark.evaluate(
                        df, label="y", score=names, strategy=strategy))
                    together.append(elapsed)
                    elapsed, each = timed(lambda: [fastpr.spark.evaluate(
                        df, label="y", score=name, strategy=strategy) for name in names])
                    loop.append(elapsed)
                a, b = statistics.median(together), statistics.median(loop)
                print(f"{n:>6.0e} {kind:>6} {strategy:>8} {a:>11.2f}s {b:>7.2f}s {a / b:>6.2f}",
                      flush=True)
                if args.check:
                    worst = max(abs(x - y) / max(abs(y), 1e-300)
                                for k, one in enumerate(each)
                                for x, y in zip(batch[k].to_dict().values(),
                                                one.to_dict().values()) if not math.isnan(y))
                    print(f"       score=[...] against the loop: largest relative difference "
                          f"{worst:.1e}", flush=True)
            df.unpersist()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    spark.stop()


def check(df, result, spark_area):
    """Every field of the result against fastpr.evaluate on the collected columns."""
    columns = df.toArrow()
    y, s = (columns.column(name).to_numpy() for name in ("y", "s"))
    expected = fastpr.evaluate(y, s)
    worst = max(abs(value - expected.to_dict()[key]) / max(abs(expected.to_dict()[key]), 1e-300)
                for key, value in result.to_dict().items()
                if not (isinstance(value, float) and math.isnan(value)))
    print(f"       exact: largest relative difference {worst:.1e}; Spark's area "
          f"{spark_area:.6f}, auc_pr_linear {expected.auc_pr_linear:.6f}, "
          f"auc_pr {expected.auc_pr:.6f}", flush=True)


if __name__ == "__main__":
    main()
