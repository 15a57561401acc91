"""The ``fastpr`` command: ``fastpr demo`` and ``fastpr evaluate FILE``."""
import argparse
import sys

from . import _evaluate_command
from ._demo import demo


def _parser():
    parser = argparse.ArgumentParser(
        prog="fastpr", description="Exact, fast and honest precision-recall and ROC analysis."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="the papers' worked examples (no data needed)")
    demo.add_argument("--out", default="fastpr-demo",
                      help="folder for the figures, when matplotlib is installed "
                           "(default: fastpr-demo)")
    demo.add_argument("--no-figures", dest="figures", action="store_false",
                      help="print only, write no figures")
    evaluate = commands.add_parser(
        "evaluate", help="every ROC and PR area of the scores in a file",
        description="Every ROC and PR area of one or more score columns of a predictions file.")
    _evaluate_command.add_arguments(evaluate)
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    if args.command == "demo":
        demo(args.out, args.figures)
        return 0
    try:
        report = _evaluate_command.compute(args)
    except _evaluate_command.CommandError as error:
        print(f"fastpr evaluate: {error}", file=sys.stderr)
        return 1
    print(_evaluate_command.render(report, args.format))
    return 0


if __name__ == "__main__":
    sys.exit(main())
