"""The ``fastpr`` command: ``fastpr demo``, ``fastpr evaluate FILE`` and ``fastpr warmup``."""
import argparse
import os
import signal
import sys
import threading
import time

from .. import __version__
from .._engine import jit
from . import warmup
from . import evaluate as evaluate_command
from .demo import demo

# The exit status of a command whose reader went away (``fastpr demo | head -1``): the shell's
# for a process ended by SIGPIPE (128 + 13), so that ``set -o pipefail`` sees the cut output.
BROKEN_PIPE_STATUS = 141
# Seconds of compiling in a command's first run on the 2-core development machine (measured
# with bench/cold_start.py), for the one line that says so instead of a silent pause.
_FIRST_COMPILE_SECONDS = {"demo": 11, "evaluate": 6, "--bootstrap": 5, "--group": 3}


def _parser():
    parser = argparse.ArgumentParser(
        prog="fastpr", description="Exact, fast and honest precision-recall and ROC analysis."
    )
    parser.add_argument("--version", action="version", version=f"fastpr {__version__}")
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
    evaluate_command.add_arguments(evaluate)
    warmup_command = commands.add_parser(
        "warmup", help="compile every kernel into the cache (for image builds and CI caches)",
        description="Compile every kernel signature fastpr uses into its cache, so that later "
                    "processes start without compiling. Run it as the user who installed "
                    "fastpr to fill the package's own cache, which read-only installs then use; "
                    "or with NUMBA_CACHE_DIR set to fill that directory.")
    warmup_command.add_argument(
        "--jobs", type=_positive_int, default=None,
        help="processes compiling at once (default: NUMBA_NUM_THREADS, numba's count of the "
             "CPUs this process may use; each takes a few hundred MB)")
    return parser


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _announce_first_compile(args):
    """Print one line on stderr when this process first compiles a kernel."""
    seconds = _FIRST_COMPILE_SECONDS[args.command]
    if args.command == "evaluate":
        seconds += sum(_FIRST_COMPILE_SECONDS[option] for option, used in (
            ("--bootstrap", args.bootstrap), ("--group", args.group)) if used)
    where = jit.cache_dir()
    later = (f"cached in {where} for later runs" if where else
             "no writable cache, so every run compiles: see `fastpr warmup --help`")

    def announce():
        print(f"fastpr: compiling kernels for first use, about {seconds} s ({later})",
              file=sys.stderr, flush=True)

    jit.on_first_compile(announce)


def _run_warmup(jobs):
    where = jit.cache_dir()
    if where is None:
        print("fastpr warmup: no writable cache directory; set NUMBA_CACHE_DIR to one",
              file=sys.stderr)
        return 1
    print(f"fastpr warmup: compiling into {where}", flush=True)

    def report(name, seconds, compiled, loaded):
        print(f"  {name:<17} {compiled:3d} compiled, {loaded:3d} from the cache, {seconds:6.1f} s",
              flush=True)

    start = time.perf_counter()
    try:
        unsaved = warmup.run(report=report, jobs=jobs)
    except warmup.FeatureFailed as error:
        print(f"fastpr warmup: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("fastpr warmup: interrupted; what it compiled is in the cache", file=sys.stderr)
        return 130
    if unsaved:
        print(f"fastpr warmup: could not write {len(unsaved)} kernels into {where}",
              file=sys.stderr)
        return 1
    print(f"fastpr warmup: done in {time.perf_counter() - start:.0f} s; later processes load the "
          f"kernels from {where}")
    return 0


def _run(args):
    if args.command == "warmup":
        return _run_warmup(args.jobs or jit.thread_limit())
    _announce_first_compile(args)
    if args.command == "demo":
        return demo(args.out, args.figures)
    try:
        report = evaluate_command.compute(args)
    except evaluate_command.CommandError as error:
        print(f"fastpr evaluate: {error}", file=sys.stderr)
        return 1
    print(evaluate_command.render(report, args.format))
    return 0


def _end_on_interrupt(command):
    """Ctrl-C ends the process at once: one line on stderr, exit status 130.

    Python raises KeyboardInterrupt only between bytecodes of the main thread, so a long kernel
    or a file read in pyarrow ran on for seconds, the pool's threads too, and the exception came
    back through their frames. Here the signal wakes a thread that ends the process itself.
    """
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    # A handler of our own: the default one raises KeyboardInterrupt, and pyarrow installs its
    # own only over the default one.
    signal.signal(signal.SIGINT, lambda number, frame: None)

    def wait():
        while os.read(wake_read, 1)[0] != signal.SIGINT:
            pass
        os.write(2, f"fastpr {command}: interrupted\n".encode())
        os._exit(130)

    threading.Thread(target=wait, name="fastpr-interrupt", daemon=True).start()


def main(argv=None):
    """Run the ``fastpr`` command with ``argv`` (default: the process's); its exit status.

    Run as the process's command (``argv`` None, in the main thread), Ctrl-C ends ``demo`` and
    ``evaluate`` at once with one line on stderr and exit status 130.
    """
    args = _parser().parse_args(argv)
    if (argv is None and args.command != "warmup"
            and threading.current_thread() is threading.main_thread()):
        _end_on_interrupt(args.command)
    try:
        status = _run(args)
        sys.stdout.flush()  # here, so that a reader gone away is caught below, not at exit
    except BrokenPipeError:
        # Python's recipe: point stdout at devnull, so that the flush at exit cannot fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE_STATUS
    return status


if __name__ == "__main__":
    sys.exit(main())
