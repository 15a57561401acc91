"""``.. fastpr-output:: evaluate FILE ...``: run the ``fastpr`` command at build time and show
what it prints, so that the pages show the installed command's real output and never drift.

The command runs as ``python -m fastpr`` with the interpreter that runs Sphinx (the ``fastpr``
script need not be on ``PATH``), in ``docs/_static`` (the files it reads are published there).
Only standard output is shown: standard error carries the one-time compile notice. A failing
command is a build error.
"""
import shlex
import subprocess
import sys
from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

DATA = Path(__file__).resolve().parent.parent / "_static"


class FastprOutput(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True

    def run(self):
        arguments = shlex.split(self.arguments[0])
        result = subprocess.run([sys.executable, "-m", "fastpr", *arguments], cwd=DATA,
                                capture_output=True, text=True, timeout=600)
        if result.returncode != 0:
            raise self.error(f"`fastpr {self.arguments[0]}` ended with exit status "
                             f"{result.returncode}:\n{result.stderr}")
        text = f"$ fastpr {self.arguments[0]}\n{result.stdout.rstrip()}"
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def setup(app):
    app.add_directive("fastpr-output", FastprOutput)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
