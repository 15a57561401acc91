"""``fastpr evaluate FILE``: every estimator for each score column of a predictions file."""
import argparse
import contextlib
import importlib.util
import re
import sys
import warnings
from pathlib import Path

import numpy as np

import fastpr

from .. import _validation
from .._optional import import_optional
from ..exceptions import InputError, UndefinedMetricWarning
from ..intervals import BOOTSTRAP_INTERVALS, bootstrap
from ..io import NUMBER, FileFormatError, line_number, read_columns
from ..metrics import evaluate
from . import report as report_module

# Column names that say "identifier": id, user_id, user-id, userId, userID.
_IDENTIFIER_NAME = re.compile(r"(?i:id)|.*[_\-. ](?i:id)|.*[a-z0-9](Id|ID)")
_AUTO_PROGRESS_WORK = 50_000_000  # rows x replicates above which a terminal gets a progress bar
# The command's option for each library argument that an option sets, for errors in its terms.
_OPTIONS = {"n_boot": "--bootstrap", "confidence": "--confidence", "seed": "--seed",
            "interval": "--ci-method", "pos_label": "--pos-label",
            **{point.argument: point.option for point in report_module.POINT_OPTIONS}}


class CommandError(Exception):
    """Bad input to the command: its one-line message goes to stderr, without a traceback."""


def add_arguments(parser):
    parser.add_argument("file", help="predictions: .csv or .tsv, maybe compressed (.csv.gz, "
                                     ".csv.bz2, .csv.zst); .parquet; .npz; or - for CSV text on "
                                     "standard input")
    parser.add_argument("--label", required=True, help="column of true labels")
    parser.add_argument("--score", action="append", metavar="COLUMN",
                        help="column of scores (higher = more positive); repeat to compare "
                             "models (default: every numeric column but the label, weight and "
                             "group columns and identifiers, each a model named by its column)")
    parser.add_argument("--exclude", action="append", metavar="COLUMN",
                        help="without --score: a column not to evaluate; repeat to leave out "
                             "more (columns that look like identifiers, named id, *_id or *Id, "
                             "or integers all distinct, are left out with a note)")
    parser.add_argument("--weight", metavar="COLUMN", help="column of sample weights")
    parser.add_argument("--group", metavar="COLUMN",
                        help="column of groups: results per group and their mean over the groups "
                             "with both classes (--bootstrap and --plot use all rows)")
    parser.add_argument("--pos-label", metavar="LABEL",
                        help="the positive label (needed unless labels are 0/1, -1/1 or "
                             "true/false)")
    for point in report_module.POINT_OPTIONS:
        parser.add_argument(point.option, type=point.type, action="append", metavar=point.metavar,
                            help=point.help)
    parser.add_argument("--bootstrap", type=int, default=0, metavar="N",
                        help="add a bootstrap confidence interval of AUC-PR (interpolated) from "
                             "N replicates, stratified by class")
    parser.add_argument("--ci-method", choices=BOOTSTRAP_INTERVALS, default="percentile",
                        help="how --bootstrap turns replicates into an interval: percentile, "
                             "basic (reflected about the estimate) or bca (bias-corrected and "
                             "accelerated) (default: percentile)")
    parser.add_argument("--confidence", type=float, default=0.95, metavar="LEVEL",
                        help="confidence level of the --bootstrap interval, between 0 and 1 "
                             "(default: 0.95)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the --bootstrap replicates: the same seed gives the same "
                             "interval on any machine (default: 0)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar per model while bootstrapping (needs tqdm; "
                             "default: on a terminal, for long runs, when tqdm is installed)")
    parser.add_argument("--plot", metavar="IMAGE",
                        help="write ROC and PR curves, with the --bootstrap interval, to this "
                             "image: .png, .pdf, .svg, ... (needs matplotlib)")
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table",
                        help="table: for reading, one row per (group and) model, with a key to "
                             "the column names; json or csv: every value in full precision, "
                             "shaped as below (default: table)")
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = report_module.SHAPES


# --------------------------------------------------------------------------- input
class _LeftOut:
    """The columns to leave unread without --score: those --exclude names and those named like
    identifiers (never the label, weight and group); it notes the names it is asked about."""

    def __init__(self, excluded, others):
        self.excluded, self.others = set(excluded or ()), set(others)
        self.asked, self.identifiers = [], []

    def __contains__(self, name):
        self.asked.append(name)
        if name in self.others:
            return False
        if name not in self.excluded and _IDENTIFIER_NAME.fullmatch(name):
            self.identifiers.append(name)
            return True
        return name in self.excluded


def _read(args):
    """The file's columns, each 1-D, scores and weights numbers, labels and groups filled; the
    score columns (those named, or every numeric column besides the others and identifiers);
    and the identifiers left out."""
    others = [args.label] + [c for c in (args.weight, args.group) if c]
    repeated = [name for k, name in enumerate(args.score or []) if name in args.score[:k]]
    if repeated:  # (each model is named by its column: one would hide the other)
        raise CommandError(f"--score names column {repeated[0]!r} more than once.")
    if args.score and args.exclude:
        raise CommandError("--exclude chooses among the columns evaluated without --score; "
                           "with --score, name only the models.")
    identifiers = []
    try:
        if args.score:
            data = read_columns(args.file, others + args.score)
        else:
            left_out = _LeftOut(args.exclude, others)
            data = read_columns(args.file, exclude=left_out)
            for name in args.exclude or ():
                if name not in left_out.asked:
                    raise CommandError(f"--exclude {name}: {_missing(args, name, left_out.asked)}")
            _check_present(args, data, others)
        for name, values in data.items():  # a 2-D .npz array would be read as many rankings
            try:
                _validation.as_1d(f"column {name!r}", values)
            except ValueError as error:
                raise FileFormatError(_name(args), str(error), column=name) from None
        if args.score:
            models = args.score
        else:
            distinct = [name for name in data if name not in others and _all_distinct(data[name])]
            identifiers = [name for name in left_out.asked
                           if name in left_out.identifiers or name in distinct]
            models = _numeric_columns(args, data, others, distinct, identifiers)
        for name in [*models, args.weight] if args.weight else models:
            _check_numeric(args, name, data[name])
        data = {name: data[name] for name in [*others, *models]}  # the rest, released
        for name in [args.label, args.group] if args.group else [args.label]:
            _check_filled(_name(args), name, data[name])
    except OSError as error:
        raise CommandError(f"cannot read {args.file}: {error.strerror or error}") from None
    except (ValueError, ImportError) as error:
        raise CommandError(str(error)) from None
    return data, models, identifiers


def _name(args):
    """The file's name in messages."""
    return "<stdin>" if args.file == "-" else args.file


def _missing(args, name, columns):
    """The message for a column ``name`` that the file, of ``columns``, lacks."""
    shown = ", ".join(map(repr, list(columns)[:10]))
    return (f"{_name(args)} has no column {name!r}; its columns are {shown}"
            f"{', ...' if len(columns) > 10 else ''}.")


def _check_present(args, data, columns):
    """The label, weight and group columns are among every column read (read_columns checks
    the columns it is asked for)."""
    for name in columns:
        if name not in data:
            raise CommandError(_missing(args, name, list(data)))


def _all_distinct(values):
    """Integers, each value once: a column of identifiers, not of scores."""
    if values.dtype.kind not in "iu" or values.size < 2:
        return False
    steps = np.diff(values)  # (wraps around for uint64; then the sort below decides)
    if (steps > 0).all() or (steps < 0).all():
        return True
    del steps
    ordered = np.sort(values)
    return bool((ordered[1:] != ordered[:-1]).all())


def _numeric_columns(args, data, others, distinct, identifiers):
    """Every numeric column but ``others`` and the ``distinct`` integers: the models when no
    --score names them. A text column that holds numbers is a model with a bad cell (an
    error), not a column to skip."""
    models = []
    for name, values in data.items():
        if name in others or name in distinct:
            continue
        if values.dtype.kind in "iuf":
            models.append(name)
        elif values.dtype.kind in "US" and _holds_a_number(values):
            _check_numeric(args, name, values, hint=True)
    if not models:
        skipped = (f" (left out as identifiers: {', '.join(map(repr, identifiers))})"
                   if identifiers else "")
        raise CommandError(f"{_name(args)} has no numeric column besides "
                           f"{', '.join(map(repr, others))} to evaluate{skipped}; name one "
                           "with --score.")
    return models


def _holds_a_number(values):
    return any(isinstance(value, str) and NUMBER.fullmatch(value) for value in values.tolist())


def _pos_label(text, labels, column, path):
    """``--pos-label`` as a value of the label column's type."""
    if text is None or labels.dtype.kind == "U":
        return text
    if labels.dtype.kind == "S":  # (bytes, from a .npz file)
        return text.encode()
    if labels.dtype.kind == "b":
        return {"true": True, "1": True, "false": False, "0": False}.get(text.lower(), text)
    try:
        return int(text)  # (exactly: through float, 2**53 + 1 became 2**53)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        raise CommandError(f"{path}: --pos-label {text!r} is not a number, but column {column!r} "
                           "holds numbers.") from None
    return int(number) if number.is_integer() else number


def _check_numeric(args, name, values, *, hint=False):
    """A column that should hold numbers but was read as text: name its first non-number, with
    its line in a text file; ``hint``: and how to leave the column out."""
    if values.dtype.kind not in "USO":
        return
    for row, value in enumerate(values.tolist(), start=1):
        if not (isinstance(value, str) and (value == "" or NUMBER.fullmatch(value))):
            shown = value if len(str(value)) <= 40 else str(value)[:37] + "..."
            line = line_number(args.file, row)
            where = f"row {row}" if line is None else f"row {row} (line {line})"
            how = (f"; leave the column out with --exclude {name}, or name the models with "
                   "--score." if hint else ".")
            raise FileFormatError(_name(args), f"column {name!r} holds {shown!r} at {where}, "
                                               f"which is not a number{how}", column=name, row=row)


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
        raise CommandError(f"{_name(args)}: {error.describe(names, _row)}") from None
    except (ValueError, TypeError) as error:
        raise CommandError(f"{_name(args)}: {error}") from None


# --------------------------------------------------------------------------- work
def _quietly(function, *args, **kwargs):
    """Undefined metrics stay NaN without warnings: the report shows them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return function(*args, **kwargs)


def _point_values(columns, labels, score, weights, pos_label, groups=None):
    """{name: value} of the columns that --at-* and --top-k add (``report.point_columns``), each
    function called once with all its levels; with ``groups``, one value per group."""
    levels = {}
    for _, function, level, _ in columns:
        levels.setdefault(function, []).append(level)
    results = {function: _quietly(getattr(fastpr, function), labels, score, given,
                                  sample_weight=weights, pos_label=pos_label, groups=groups)
               for function, given in levels.items()}
    values = {}
    for name, function, level, field in columns:
        result, at = results[function], levels[function].index(level)
        if isinstance(result, list):  # one result per group
            values[name] = np.array([np.atleast_1d(getattr(r, field))[at] for r in result])
        else:  # arrays over (the rankings and) the levels
            value = np.asarray(getattr(result, field), dtype=np.float64)
            value = value.reshape(-1, len(levels[function]))[:, at]
            values[name] = value if groups is not None else float(value[0])
    return values


def _group_results(labels, scores, weights, groups, pos_label, columns):
    """{group: {model: results}}, {model: mean results} and what the mean was over.

    The mean is over the groups with both classes, for every metric alike, so that one sentence
    says which groups it covers (where a group lacks a class, its areas are undefined).
    """
    batches = {model: _quietly(evaluate, labels, score, sample_weight=weights,
                               pos_label=pos_label, groups=groups)
               for model, score in scores.items()}
    added = {model: _point_values(columns, labels, score, weights, pos_label, groups)
             for model, score in scores.items()}
    first = next(iter(batches.values()))
    per_group = {str(g): {m: {**b[i].to_dict(), **{name: float(values[i]) for name, values
                                                   in added[m].items()}}
                          for m, b in batches.items()}
                 for i, g in enumerate(first.index.tolist())}
    used = (first.n_pos > 0) & (first.n_neg > 0)
    mean = {m: {f: (float(np.mean(values[used])) if used.any() else float("nan"))
                for f, values in [*((f, getattr(b, f)) for f in report_module.MEAN_FIELDS),
                                  *added[m].items()]}
            for m, b in batches.items()}
    over = {"groups": int(used.size), "used": int(used.sum()),
            "no_positives": int(np.sum(first.n_pos == 0)),
            "no_negatives": int(np.sum((first.n_pos > 0) & (first.n_neg == 0)))}
    return per_group, mean, over


def _progress(args, n_rows):
    if args.progress is not None:
        return args.progress
    return (sys.stderr.isatty() and n_rows * args.bootstrap >= _AUTO_PROGRESS_WORK
            and importlib.util.find_spec("tqdm") is not None)


def _interval(args, model, labels, score, weights, pos_label):
    """Bootstrap interval of AUC-PR (the interpolated area) on all rows."""
    progress = _progress(args, labels.size) and f"bootstrap of {model}"
    return _quietly(bootstrap, labels, score, n_boot=args.bootstrap, interval=args.ci_method,
                    confidence=args.confidence, seed=args.seed, sample_weight=weights,
                    pos_label=pos_label, progress=progress)


def _plot(args, labels, scores, weights, pos_label, intervals):
    """ROC curves on the left, PR curves (with any bootstrap interval) on the right."""
    from .. import plot

    _optional_module("matplotlib.figure", "plot")
    # (11 by 5.8 inches for the square Axes; the figure grows by the height of the longer legend.)
    figure, (roc_axes, pr_axes) = plot.drawing.new_figure(2, (11, 5.8), pyplot=False)
    rankings = {model: (labels, score, weights) for model, score in scores.items()}
    _quietly(plot.plot_comparison, rankings, kind="roc", ax=roc_axes, pos_label=pos_label)
    for k, (model, score) in enumerate(scores.items()):
        once = {"unachievable": False, "iso_f": ()} if k else {}  # drawn for the first model
        _quietly(plot.plot_pr, labels, score, sample_weight=weights, pos_label=pos_label,
                 ax=pr_axes, label=model, bootstrap=intervals.get(model), **once)
    try:
        figure.savefig(args.plot, dpi=100)
    except OSError as error:
        raise CommandError(f"cannot write {args.plot}: {error.strerror or error}") from None


def _optional_module(module, extra):
    try:
        return import_optional(module, extra)
    except ImportError as error:
        raise CommandError(str(error)) from None


def _check_plot_path(path):
    """Before any work: matplotlib is installed and writes the format that ``path`` names."""
    _optional_module("matplotlib.figure", "plot")
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = Path(path).suffix.lower()
    if suffix[1:] not in formats:
        has = f"suffix {suffix!r}" if suffix else "no suffix"
        raise CommandError(f"--plot {path} has {has}; matplotlib writes "
                           f"{', '.join('.' + name for name in sorted(formats))} files.")


def _point_columns(args):
    """The columns that --at-* and --top-k add (``report.point_columns``)."""
    return report_module.point_columns({point.option: getattr(args, _dest(point.option))
                                        for point in report_module.POINT_OPTIONS})


def _dest(option):
    return option[2:].replace("-", "_")


def _check_options(args):
    """The options and the optional modules they need, before any work, in messages that do
    not name the file."""
    for point in report_module.POINT_OPTIONS:
        values = getattr(args, _dest(point.option)) or []
        repeated = [value for k, value in enumerate(values) if value in values[:k]]
        if repeated:  # (its column would be named twice)
            raise CommandError(f"{point.option} {repeated[0]} is given more than once.")
        try:
            for value in values:  # one by one: the message names the value, not a position
                _validation.check(getattr(fastpr, point.function), **{point.argument: value})
        except InputError as error:
            raise CommandError(error.describe(_OPTIONS)) from None
    if args.bootstrap < 0:
        raise CommandError(f"--bootstrap must be >= 0, got {args.bootstrap}.")
    if args.bootstrap:
        try:
            _validation.check(bootstrap, n_boot=args.bootstrap, confidence=args.confidence,
                           seed=args.seed)
        except InputError as error:
            raise CommandError(error.describe(_OPTIONS)) from None
    if args.progress:
        _optional_module("tqdm", "progress")
    if args.plot:
        _check_plot_path(args.plot)


def compute(args):
    """Read the file and compute everything asked for: a dict ready for :func:`render`."""
    _check_options(args)
    data, models, identifiers = _read(args)
    if identifiers:
        print(f"fastpr evaluate: left out {', '.join(map(repr, identifiers))}, which look like "
              "identifiers (named like one, or integers all distinct); name a column with "
              "--score to evaluate it.", file=sys.stderr)
    labels = data[args.label]
    scores = {name: data[name] for name in models}
    weights = data[args.weight] if args.weight else None
    pos_label = _pos_label(args.pos_label, labels, args.label, _name(args))
    columns = _point_columns(args)
    added = [name for name, *_ in columns]
    report = report_module.empty(_name(args), models, labels.size, added)
    intervals = {}
    for model, score in scores.items():
        with _in_file_terms(args, model):
            result = _quietly(evaluate, labels, score, sample_weight=weights, pos_label=pos_label)
            _validation.both_classes(result.n_pos, result.n_neg, "compute the ROC and PR areas")
            values = {**result.to_dict(), **_point_values(columns, labels, score, weights,
                                                          pos_label)}
            report["all"][model] = report_module.results(values, added)
            if args.bootstrap:
                intervals[model] = _interval(args, model, labels, score, weights, pos_label)
                report["all"][model].update(report_module.interval_bounds(intervals[model]))
    if args.bootstrap:
        report["interval"] = report_module.interval_settings(args)
    if args.group:
        with _in_file_terms(args):
            groups, mean, over = _group_results(labels, scores, weights, data[args.group],
                                                pos_label, columns)
        report["groups"] = {g: {m: report_module.results(r, added) for m, r in by_model.items()}
                            for g, by_model in groups.items()}
        report["mean"] = {m: report_module.results(r, added) for m, r in mean.items()}
        report["mean_over"] = over
    if args.plot:
        _plot(args, labels, scores, weights, pos_label, intervals)
    return report


def render(report, output_format):
    return report_module.render(report, output_format)
