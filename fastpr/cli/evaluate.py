"""``fastpr evaluate FILE``: every estimator for each score column of a predictions file."""
import argparse
import contextlib
import dataclasses
import importlib.util
import json
import sys
import warnings
from pathlib import Path

import numpy as np

from .. import _options, _validation
from .._optional import import_optional
from ..exceptions import InputError, UndefinedMetricWarning
from ..intervals import BOOTSTRAP_INTERVALS, bootstrap
from ..io import FileFormatError, read_columns
from ..metrics import evaluate
from ..results import Evaluation

FIELDS = tuple(field.name for field in dataclasses.fields(Evaluation))
# Averaged over groups: the prevalence and the areas (not the counts).
MEAN_FIELDS = tuple(f for f in FIELDS if f not in ("n_pos", "n_neg", "n_thresholds"))
_AUTO_PROGRESS_WORK = 50_000_000  # rows x replicates above which a terminal gets a progress bar
# The command's option for each library argument that an option sets, for errors in its terms.
_OPTIONS = {"n_boot": "--bootstrap", "confidence": "--confidence", "seed": "--seed",
            "interval": "--ci-method", "pos_label": "--pos-label"}


class CommandError(Exception):
    """Bad input to the command: its one-line message goes to stderr, without a traceback."""


def add_arguments(parser):
    parser.add_argument("file", help="predictions: .csv, .parquet (needs pyarrow) or .npz")
    parser.add_argument("--label", required=True, help="column of true labels")
    parser.add_argument("--score", required=True, action="append",
                        help="column of scores (higher = more positive); repeat to compare models")
    parser.add_argument("--weight", help="column of sample weights")
    parser.add_argument("--group", help="column of groups: results per group and their mean "
                             "(--bootstrap and --plot use all rows)")
    parser.add_argument("--pos-label", help="the positive label (needed unless labels are "
                                            "0/1, -1/1 or true/false)")
    parser.add_argument("--bootstrap", type=int, default=0, metavar="N",
                        help="add a bootstrap interval of AUC-PR from N replicates")
    parser.add_argument("--ci-method", choices=BOOTSTRAP_INTERVALS, default="percentile")
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar while bootstrapping (default: on a terminal, "
                             "for long runs, when tqdm is installed)")
    parser.add_argument("--plot", metavar="PNG", help="write ROC and PR curves (needs matplotlib)")
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table")
    parser.epilog = ("Rows are counted from 1, the first row of data. Bad input ends with exit "
                     "status 1 and one line on stderr.")


# --------------------------------------------------------------------------- input
def _read(args):
    """The file's columns, each 1-D, scores and weights numbers, labels and groups filled."""
    columns = [args.label, *args.score] + [c for c in (args.weight, args.group) if c]
    try:
        data = read_columns(args.file, columns)
        for name, values in data.items():  # a 2-D .npz array would be read as many rankings
            try:
                _validation.as_1d(f"column {name!r}", values)
            except ValueError as error:
                raise FileFormatError(args.file, str(error), column=name) from None
        for name in [*args.score, args.weight] if args.weight else args.score:
            _check_numeric(args.file, name, data[name])
        for name in [args.label, args.group] if args.group else [args.label]:
            _check_filled(args.file, name, data[name])
    except OSError as error:
        raise CommandError(f"cannot read {args.file}: {error.strerror or error}") from None
    except (ValueError, ImportError) as error:
        raise CommandError(str(error)) from None
    return data


def _pos_label(text, labels, column, path):
    """``--pos-label`` as a value of the label column's type."""
    if text is None or labels.dtype.kind in "US":
        return text
    if labels.dtype.kind == "b":
        return {"true": True, "1": True, "false": False, "0": False}.get(text.lower(), text)
    try:
        number = float(text)
    except ValueError:
        raise CommandError(f"{path}: --pos-label {text!r} is not a number, but column {column!r} "
                           "holds numbers.") from None
    return int(number) if number.is_integer() else number


def _check_numeric(path, name, values):
    """A column that should hold numbers but was read as text: name its first non-number."""
    if values.dtype.kind not in "USO":
        return
    for row, value in enumerate(values.tolist(), start=1):
        try:
            float(value)
        except ValueError:
            shown = value if len(value) <= 40 else value[:37] + "..."
            raise FileFormatError(path, f"column {name!r} holds {shown!r} at row {row}, which is "
                                        "not a number.", column=name, row=row) from None


def _check_filled(path, name, values):
    """Labels and groups: an empty cell of a text column is missing data, not a class or group
    (in a numeric column it is NaN, which the library reports)."""
    if values.dtype.kind == "U" and (values == "").any():
        row = int(np.argmax(values == "")) + 1
        raise FileFormatError(path, f"column {name!r} has an empty cell at row {row}.",
                              column=name, row=row)


def _row(index):
    return f"row {index + 1}"


@contextlib.contextmanager
def _in_file_terms(args, model=None):
    """The library's errors about the columns, as one line that names the file: an InputError
    restated with columns for the arguments they feed and rows counted from 1."""
    try:
        yield
    except ImportError as error:
        raise CommandError(str(error)) from None
    except InputError as error:
        columns = {"y_true": args.label, "y_score": model, "sample_weight": args.weight,
                   "groups": args.group}
        names = {**_OPTIONS, **{argument: f"column {column!r}"
                                for argument, column in columns.items() if column is not None}}
        raise CommandError(f"{args.file}: {error.describe(names, _row)}") from None
    except (ValueError, TypeError) as error:
        raise CommandError(f"{args.file}: {error}") from None


# --------------------------------------------------------------------------- work
def _evaluations(labels, scores, weights, pos_label):
    """One Evaluation per score column; undefined metrics stay NaN without warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return {name: evaluate(labels, score, sample_weight=weights, pos_label=pos_label)
                for name, score in scores.items()}


def _group_results(labels, scores, weights, groups, pos_label):
    """{group: {model: Evaluation}} and {model: {metric: mean over the groups where defined}},
    from one grouped evaluation per model."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        batches = {model: evaluate(labels, score, sample_weight=weights, pos_label=pos_label,
                                   groups=groups) for model, score in scores.items()}
    index = next(iter(batches.values())).index.tolist()
    per_group = {str(g): {m: b[i].to_dict() for m, b in batches.items()}
                 for i, g in enumerate(index)}
    mean = {m: {f: b.macro(f).value for f in MEAN_FIELDS} for m, b in batches.items()}
    return per_group, mean


def _progress(args, n_rows):
    if args.progress is not None:
        return args.progress
    return (sys.stderr.isatty() and n_rows * args.bootstrap >= _AUTO_PROGRESS_WORK
            and importlib.util.find_spec("tqdm") is not None)


def _interval(args, labels, score, weights, pos_label):
    """Bootstrap interval of AUC-PR (the interpolated area) on all rows."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        result = bootstrap(labels, score, n_boot=args.bootstrap, interval=args.ci_method,
                           confidence=args.confidence, seed=args.seed, sample_weight=weights,
                           pos_label=pos_label, progress=_progress(args, labels.size))
    return {"auc_pr_low": result.low, "auc_pr_high": result.high}


def _check_plot_path(path):
    """Before any work: matplotlib is installed and writes the format that ``path`` names."""
    _matplotlib_figure()
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = Path(path).suffix.lower()
    if suffix[1:] not in formats:
        has = f"suffix {suffix!r}" if suffix else "no suffix"
        raise CommandError(f"--plot {path} has {has}; matplotlib writes "
                           f"{', '.join('.' + name for name in sorted(formats))} files.")


def _plot(path, labels, scores, weights, pos_label):
    figure_module = _matplotlib_figure()
    from .. import plot

    figure = figure_module.Figure(figsize=(11, 5.5))
    roc_axes, pr_axes = figure.subplots(1, 2)
    rankings = {model: (labels, score, weights) for model, score in scores.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        plot.plot_comparison(rankings, kind="roc", ax=roc_axes, pos_label=pos_label)
        plot.plot_comparison(rankings, kind="pr", ax=pr_axes, pos_label=pos_label)
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=100)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror or error}") from None


def _matplotlib_figure():
    try:
        return import_optional("matplotlib.figure", "plot")
    except ImportError as error:
        raise CommandError(str(error)) from None


def _check_options(args):
    """The options, before any work, in messages that do not name the file."""
    if args.bootstrap < 0:
        raise CommandError(f"--bootstrap must be >= 0, got {args.bootstrap}.")
    if args.bootstrap:
        try:
            _options.check(bootstrap, n_boot=args.bootstrap, confidence=args.confidence,
                           seed=args.seed)
        except InputError as error:
            raise CommandError(error.describe(_OPTIONS)) from None
    if args.plot:
        _check_plot_path(args.plot)


def compute(args):
    """Read the file and compute everything asked for: a dict ready for :func:`render`."""
    _check_options(args)
    data = _read(args)
    labels = data[args.label]
    scores = {name: data[name] for name in args.score}
    weights = data[args.weight] if args.weight else None
    pos_label = _pos_label(args.pos_label, labels, args.label, args.file)
    report = {"file": str(args.file), "models": list(scores), "n_rows": int(labels.size),
              "all": {}}
    for model, score in scores.items():
        with _in_file_terms(args, model):
            result = _evaluations(labels, {model: score}, weights, pos_label)[model]
            _validation.both_classes(result.n_pos, result.n_neg, "compute the ROC and PR areas")
            report["all"][model] = result.to_dict()
            if args.bootstrap:
                report["interval"] = (f"auc_pr_low/high: {args.confidence:.0%} {args.ci_method} "
                                      f"bootstrap interval, {args.bootstrap} replicates")
                report["all"][model].update(
                    _interval(args, labels, score, weights, pos_label))
    if args.group:
        with _in_file_terms(args):
            report["groups"], report["mean"] = _group_results(labels, scores, weights,
                                                              data[args.group], pos_label)
    if args.plot:
        _plot(args.plot, labels, scores, weights, pos_label)
    return report


# --------------------------------------------------------------------------- output
def _sections(report):
    """(title, {row name: value per model}) for all rows, each group, and the groups' mean."""
    models = report["models"]

    def table(results):
        return {name: [results[m][name] for m in models] for name in results[models[0]]}

    title = "all rows" + (f" ({report['interval']})" if "interval" in report else "")
    sections = [(title, table(report["all"]))]
    for group, results in report.get("groups", {}).items():
        sections.append((f"group {group}", table(results)))
    if "mean" in report:
        sections.append((f"mean over {len(report['groups'])} groups", table(report["mean"])))
    return sections


def _cell(value):
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if float(value).is_integer() and abs(value) >= 1:
        return f"{value:.0f}"
    return f"{value:.6f}"


def _render_table(report):
    models = report["models"]
    width = max(len(f) for f in FIELDS + ("auc_pr_high",)) + 2
    column = max(12, *(len(m) + 2 for m in models))
    lines = [f"{report['file']}: {report['n_rows']} rows"]
    for title, rows in _sections(report):
        lines += ["", title, "".ljust(width) + "".join(m.rjust(column) for m in models)]
        lines += [name.ljust(width) + "".join(_cell(v).rjust(column) for v in values)
                  for name, values in rows.items()]
    return "\n".join(lines)


def _render_csv(report):
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    grouped = "groups" in report
    writer.writerow((["group"] if grouped else []) + ["metric", *report["models"]])
    for title, rows in _sections(report):
        prefix = [title.removeprefix("group ")] if grouped else []
        for name, values in rows.items():
            writer.writerow(prefix + [name, *(v if isinstance(v, int) else repr(float(v))
                                              for v in values)])
    return buffer.getvalue().rstrip("\n")


def _json_ready(value):
    if isinstance(value, dict):
        return {key: _json_ready(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_ready(item) for item in value]
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


def render(report, output_format):
    if output_format == "json":
        return json.dumps(_json_ready(report), indent=2)
    if output_format == "csv":
        return _render_csv(report)
    return _render_table(report)
