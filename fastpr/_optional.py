"""Optional dependencies: import them on first use, or say which extra installs them."""
import importlib


def import_optional(module, extra):
    """The module, or an ImportError whose one line names the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(
            f'this needs {module}, which is not installed: pip install "fastpr[{extra}]"'
        ) from None
