"""Long explanations of the plugin's error codes, for ``proxy-types explain``.

The one-line descriptions live with the codes in ``mypy_plugin.errors``; this
module adds what the code protects against, a wrong and a right example, and
how to silence it.  The same text becomes the SARIF rules' help.
"""

from __future__ import annotations

from typing import NamedTuple


class Explanation(NamedTuple):
    """What one error code is about, with code that triggers and fixes it."""

    meaning: str
    wrong: str
    right: str


EXPLANATIONS: dict[str, Explanation] = {
    "proxy-isinstance": Explanation(
        meaning=(
            "An isinstance() or issubclass() check against int, float, complex, bool or a "
            "numbers ABC, or a test such as type(x) is int or type(x) in (int, float), sees a "
            "value that may be a dynamic number (a proxy_types proxy, "
            "torch.SymInt, ...). Dynamic numbers are deliberately not instances of those "
            "classes, so the check sends them down the 'not a number' branch; if the proxy "
            "did pass, a tracing compiler would bake its traced value in as a constant."
        ),
        wrong=(
            "from numbers import Integral\n"
            "import torch\n"
            "\n"
            "def layer_norm_shape(size: int | torch.SymInt) -> tuple[int | torch.SymInt, ...]:\n"
            "    if isinstance(size, Integral):  # False for a SymInt\n"
            "        return (size,)\n"
            "    raise TypeError(size)\n"
        ),
        right=(
            "from numbers import Integral\n"
            "import torch\n"
            "from proxy_types import external_isinstance\n"
            "\n"
            "def layer_norm_shape(size: int | torch.SymInt) -> tuple[int | torch.SymInt, ...]:\n"
            "    # an int or a SymInt passes; a float or a SymFloat does not, as before\n"
            "    if external_isinstance(size, Integral):\n"
            "        return (size,)\n"
            "    raise TypeError(size)\n"
        ),
    ),
    "proxy-concretize": Explanation(
        meaning=(
            "A dynamic number is turned into a plain Python value implicitly: float(p), "
            "int(p), round(p), math.sqrt(p), indexing with p, branching on a comparison "
            "such as `if n >= 0:` or all(s > 0 for s in sizes), using p as a dict key or set "
            "member, formatting it with a spec (f'{p:.2f}'), or passing it to a helper listed "
            "in concretizing_functions (thunder's pyval). Under tracing this fails (proxy_types' "
            "proxies raise) or bakes in the value seen at trace time, and the result is "
            "silently wrong for other inputs. Where the class guards instead (torch's Sym "
            "types), the finding is proxy-specialize."
        ),
        wrong=(
            "import math\n"
            "from proxy_types import FloatProxy\n"
            "\n"
            "def scale(p: FloatProxy) -> float:\n"
            "    return math.sqrt(p) * float(p)\n"
        ),
        right=(
            "import math\n"
            "from proxy_types import FloatProxy, to_static\n"
            "\n"
            "def scale(p: FloatProxy) -> float:\n"
            "    value = to_static(p)  # recorded: the trace knows it depends on p\n"
            "    return math.sqrt(value) * value\n"
        ),
    ),
    "proxy-base": Explanation(
        meaning=(
            "A class derives from both a dynamic number class and a static one (int, float, "
            "numbers.Number, ...), or a dynamic number class is registered with a numbers "
            "ABC. Its instances then pass isinstance(x, float) checks, so code written for "
            "plain numbers treats them as constants."
        ),
        wrong=(
            "from proxy_types import NumberProxy\n"
            "\n"
            "class MyFloatProxy(NumberProxy, float):\n"
            "    pass\n"
        ),
        right=(
            "from proxy_types import NumberProxy, register_dynamic_type\n"
            "\n"
            "class MyFloatProxy(NumberProxy):\n"
            "    python_type = float\n"
            "\n"
            "# or, for a class you do not control:\n"
            "# register_dynamic_type(TheirFloatProxy, float)\n"
        ),
    ),
    "proxy-config": Explanation(
        meaning=(
            "The plugin's own configuration section ([mypy.plugins.proxy_types] in "
            "mypy.ini, [tool.proxy_types] in pyproject.toml) has a dynamic_number_classes "
            "or migrate_classes entry that names something that is not a class (a "
            "function, a variable), or a name its module does not define, so the plugin "
            "cannot treat it as a dynamic number or legacy proxy class."
        ),
        wrong=(
            "[mypy.plugins.proxy_types]\n"
            "dynamic_number_classes = mylib.tracing.make_proxy\n"
        ),
        right=(
            "[mypy.plugins.proxy_types]\n"
            "dynamic_number_classes = mylib.tracing.SymbolicFloat\n"
        ),
    ),
    "proxy-cast": Explanation(
        meaning=(
            "typing.cast() to int, float, complex, bool or a numbers ABC is applied to a "
            "value declared as a dynamic number (or a union holding one). cast() does "
            "nothing at run time: the value is still a proxy, but mypy now treats it as a "
            "plain number, so the isinstance and conversion checks stop seeing it and the "
            "traced value can later be baked in as a constant."
        ),
        wrong=(
            "from typing import cast\n"
            "import torch\n"
            "\n"
            "def width(n: torch.SymInt) -> int:\n"
            "    return cast(int, n)  # still a SymInt at run time\n"
        ),
        right=(
            "import torch\n"
            "from proxy_types import to_static\n"
            "\n"
            "def width(n: torch.SymInt) -> int:\n"
            "    return to_static(n)  # recorded: the trace knows it depends on n\n"
        ),
    ),
    "proxy-specialize": Explanation(
        meaning=(
            "A dynamic number that guards, torch.SymInt/SymFloat/SymBool or a class listed in "
            "guarded_number_classes, is converted (int(n), xs[n], math.sqrt(f)) or branched on "
            "(if n > 0:, all(s > 0 for s in shape)). That is sound: torch records a guard and "
            "recompiles when it fails. But the program is specialized on the traced value, "
            "which costs recompilations, or a data-dependent error on an unbacked symbol. "
            "Operations torch keeps symbolic (round, math.floor/ceil/trunc of a SymFloat) are "
            "not reported. Off by default: enable it with enable_error_code = "
            "proxy-specialize (mypy 2.0+), or with the comment "
            '# mypy: enable-error-code="proxy-specialize" at the top of a file (any version).'
        ),
        wrong=(
            "import torch\n"
            "\n"
            "def padding(n: torch.SymInt, multiple: int) -> int:\n"
            "    if n % multiple == 0:  # guard: the graph only serves this branch\n"
            "        return 0\n"
            "    return multiple - int(n % multiple)  # guard: int() pins the value\n"
        ),
        right=(
            "import torch\n"
            "\n"
            "def padding(n: torch.SymInt, multiple: int) -> torch.SymInt:\n"
            "    return (multiple - n % multiple) % multiple  # stays symbolic: no guard\n"
        ),
    ),
    "proxy-internal": Explanation(
        meaning=(
            "A check of the plugin raised an error while looking at this code. mypy went "
            "on and every other check ran, but what this check would have found here may "
            "be missing, so a clean result is not trustworthy until it is fixed. The line "
            "names the check, the place and the exception; `proxy-types check` exits with "
            "status 3. Rerun with PROXY_TYPES_DEBUG=1 to get the traceback, and report it. "
            "The plugin also names, once per run on standard error, any of its features a "
            "mypy release turned off."
        ),
        wrong=(
            "$ proxy-types check src/\n"
            'src/model.py:14:8: error: Internal error in check "isinstance_calls" while '
            "checking src/model.py:14: ...; findings of this check may be missing\n"
        ),
        right=(
            "$ PROXY_TYPES_DEBUG=1 mypy src/model.py --show-traceback  # report the traceback\n"
        ),
    ),
    "truthy-bool": Explanation(
        meaning=(
            "mypy's own code, enabled by proxy-types' default configuration: a value whose "
            "type defines neither __bool__ nor __len__ is used as a condition. Dynamic "
            "numbers have no __bool__ in their type stubs, so `if p:` on a proxy is "
            "reported here; at run time it would concretize the proxy."
        ),
        wrong=(
            "from proxy_types import IntegerProxy\n"
            "\n"
            "def describe(n: IntegerProxy) -> str:\n"
            "    if n:\n"
            "        return 'nonzero'\n"
            "    return 'zero'\n"
        ),
        right=(
            "from proxy_types import IntegerProxy, to_static\n"
            "\n"
            "def describe(n: IntegerProxy) -> str:\n"
            "    if to_static(n) != 0:\n"
            "        return 'nonzero'\n"
            "    return 'zero'\n"
        ),
    ),
}

# mypy codes explained here that are not the plugin's own.
BORROWED_CODES = ("truthy-bool",)


#: mypy's descriptions of the borrowed codes, for ``explain`` where mypy is not installed.
BORROWED_WITHOUT_MYPY = {
    "truthy-bool": "Warn about expressions that could always evaluate to true in boolean "
                   "contexts",
}


def plugin_codes() -> dict[str, str]:
    """Code -> one-line description, for every error code of the plugin.

    Without mypy (``codes.py`` builds mypy's ``ErrorCode`` objects), read from
    the source of ``codes.py``: explaining needs no type checker.
    """
    try:
        from ..codes import ALL_CODES
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] != "mypy":
            raise
        return codes_from_source()
    return {code.code: code.description for code in ALL_CODES}


def codes_from_source() -> dict[str, str]:
    """The plugin's codes and descriptions as ``codes.py`` spells them, in ``ALL_CODES``'s order."""
    import ast
    from pathlib import Path

    tree = ast.parse((Path(__file__).resolve().parent.parent / "codes.py").read_text("utf-8"))
    by_name: dict[str, tuple[str, str]] = {}
    order: list[str] = []
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else (
            node.target if isinstance(node, ast.AnnAssign) else None)
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if not isinstance(target, ast.Name):
            continue
        if isinstance(value, ast.Call) and len(value.args) >= 2 and all(
                isinstance(arg, ast.Constant) for arg in value.args[:2]):
            by_name[target.id] = (str(value.args[0].value),  # type: ignore[attr-defined]
                                  str(value.args[1].value))  # type: ignore[attr-defined]
        elif target.id == "ALL_CODES" and isinstance(value, ast.Tuple):
            order = [element.id for element in value.elts if isinstance(element, ast.Name)]
    return dict(by_name[name] for name in order)


def valid_codes() -> dict[str, str]:
    """Code -> description of every code ``explain`` accepts (the plugin's and borrowed ones)."""
    codes = plugin_codes()
    try:
        from mypy import errorcodes
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] != "mypy":
            raise
        return {**codes, **BORROWED_WITHOUT_MYPY}
    for code in BORROWED_CODES:
        codes[code] = errorcodes.error_codes[code].description
    return codes


# Codes reported for a configuration entry: no source line to put an ignore on.
CONFIG_CODES = ("proxy-config",)


def suppression(code: str) -> str:
    """The ways to silence ``code``, one per line."""
    if code in CONFIG_CODES:
        return (
            "  a configuration entry has no line to ignore: correct or remove the entry in\n"
            "  [mypy.plugins.proxy_types] (mypy.ini) or [tool.proxy_types] (pyproject.toml)\n"
        )
    return (
        f"  on one line:       <the reported line>  # type: ignore[{code}]\n"
        f"  in mypy.ini:       [mypy]  disable_error_code = {code}\n"
        f'  in pyproject.toml: [tool.mypy]  disable_error_code = ["{code}"]\n'
        f"  per module:        [mypy-legacy.*]  disable_error_code = {code}\n"
    )


def indent(text: str, prefix: str = "    ") -> str:
    """``text`` with ``prefix`` before every non-blank line."""
    return "".join(prefix + line if line.strip() else line for line in text.splitlines(True))


def explanation_text(code: str) -> str:
    """The plain-text explanation of ``code``; KeyError if it has none."""
    explanation = EXPLANATIONS[code]
    return (
        f"{code}: {valid_codes()[code]}\n\n"
        f"{explanation.meaning}\n\n"
        f"Wrong:\n\n{indent(explanation.wrong)}\n"
        f"Right:\n\n{indent(explanation.right)}\n"
        f"{suppression_heading(code)}:\n\n{suppression(code)}"
    )


def suppression_heading(code: str) -> str:
    if code in CONFIG_CODES:
        return "Suppress"
    return "Suppress (only where the value is known to be static)"


def explanation_markdown(code: str) -> str:
    """The Markdown explanation of ``code`` (SARIF ``help.markdown``)."""
    explanation = EXPLANATIONS[code]
    language = "ini" if explanation.wrong.startswith("[") else "python"
    return (
        f"**{code}**: {valid_codes()[code]}\n\n"
        f"{explanation.meaning}\n\n"
        f"Wrong:\n\n```{language}\n{explanation.wrong}```\n\n"
        f"Right:\n\n```{language}\n{explanation.right}```\n\n"
        + ("Correct or remove the entry in the plugin's configuration section: a "
           "configuration entry has no line to ignore.\n" if code in CONFIG_CODES else
           f"Suppress with `# type: ignore[{code}]` on the line, or "
           f"`disable_error_code = {code}` in the mypy configuration.\n")
    )


def explain_code(code: str) -> str:
    """The text ``proxy-types explain CODE`` prints."""
    from .common import CommandLineError

    codes = valid_codes()
    code = code.strip().lower()  # PROXY-ISINSTANCE, as a heading may spell it
    if code not in codes or code not in EXPLANATIONS:
        raise CommandLineError(f"unknown error code {code!r}; valid codes: {', '.join(codes)}")
    return explanation_text(code)


def list_codes() -> str:
    """One line per explained code, for ``proxy-types explain`` without a code."""
    codes = valid_codes()
    width = max(len(code) for code in codes)
    lines = [f"{code:<{width}}  {description}" for code, description in codes.items()]
    return "\n".join(lines) + "\n"
