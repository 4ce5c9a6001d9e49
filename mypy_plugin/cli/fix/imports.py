"""The imports a rewrite needs and the ones it leaves unused, placed as isort would.

A name a rewrite uses (``to_static``) is imported once from ``proxy_types``:
added to an existing module-level ``from proxy_types import ...`` at its
sorted place, or as a new statement in the section and at the place isort
gives it (future, standard library, third party, first party, local; plain
``import`` lines before ``from`` lines; modules and names sorted as isort
sorts them).  The project's isort settings are followed when it has any
(``.isort.cfg``, ``[tool.isort]``, ``[isort]`` in ``setup.cfg`` or ``tox.ini``):
profile ``black``, ``line_length``, ``multi_line_output`` 0 or 3,
``include_trailing_comma``, ``known_first_party``, ``known_third_party``,
``force_single_line``; without settings an existing import keeps its layout.
A module-level import whose names the rewrite took out of use (``import
numbers`` after ``isinstance(x, numbers.Number)`` became a guard) is removed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, ScopeProvider

from ...settings_files import SettingsFileError, read_ini, read_toml, toml_table
from .model import RUNTIME_MODULE

FUTURE, STDLIB, THIRDPARTY, FIRSTPARTY, LOCALFOLDER = range(5)
GRID, VERTICAL_HANGING_INDENT = 0, 3
#: isort's names of the two wrap modes followed (other modes wrap as mode 3).
WRAP_MODES = {"GRID": GRID, "VERTICAL_HANGING_INDENT": VERTICAL_HANGING_INDENT}


@dataclass(frozen=True)
class ImportStyle:
    """The isort settings the fix follows (isort's defaults unless the project sets them)."""

    configured: bool = False  # the project has isort settings: lay imports out as isort does
    line_length: int = 79
    multi_line_output: int = GRID
    include_trailing_comma: bool = False
    split_on_trailing_comma: bool = False
    force_single_line: bool = False
    known_first_party: frozenset[str] = field(default_factory=frozenset)
    known_third_party: frozenset[str] = field(default_factory=frozenset)
    source_root: Path = field(default_factory=Path.cwd)

    def section_of(self, module: str, relative: bool = False) -> int:
        """isort's section of ``module``: FUTURE ... LOCALFOLDER."""
        if relative:
            return LOCALFOLDER
        top = module.split(".")[0]
        if top == "__future__":
            return FUTURE
        if top in self.known_first_party:
            return FIRSTPARTY
        if top in self.known_third_party:
            return THIRDPARTY
        if top in sys.stdlib_module_names:
            return STDLIB
        root = self.source_root
        if (root / top).is_dir() or (root / f"{top}.py").is_file():
            return FIRSTPARTY  # isort's default src_paths: the project directory
        return THIRDPARTY


BLACK = {"multi_line_output": VERTICAL_HANGING_INDENT, "include_trailing_comma": True,
         "line_length": 88, "split_on_trailing_comma": True}


def import_style(root: Path) -> ImportStyle:
    """The isort settings of the project at ``root`` (searched upwards as isort does)."""
    directory = root.resolve()
    while True:
        settings = isort_settings(directory)
        if settings is not None:
            return style_from(settings, root)
        if (directory / ".git").exists() or directory.parent == directory:
            return ImportStyle(source_root=root)
        directory = directory.parent


def isort_settings(directory: Path) -> dict[str, object] | None:
    """The isort settings found in ``directory``, None if none of its files has any."""
    candidates: list[tuple[str, tuple[str, ...]]] = [
        (".isort.cfg", ("settings", "isort")), ("pyproject.toml", ("tool", "isort")),
        ("setup.cfg", ("isort", "tool:isort")), ("tox.ini", ("isort", "tool:isort")),
    ]
    for name, sections in candidates:
        path = directory / name
        if not path.is_file():
            continue
        try:
            if name.endswith(".toml"):
                table = toml_table(read_toml(path), sections)
                if isinstance(table, dict):
                    return table
                continue
            ini = read_ini(path)
        except SettingsFileError:
            continue  # mypy reports a broken config; isort settings are a nicety
        for section in sections:
            if section in ini:
                return dict(ini[section])
    return None


def style_from(settings: dict[str, object], root: Path) -> ImportStyle:
    values: dict[str, object] = dict(BLACK) if settings.get("profile") == "black" else {}
    values.update(settings)

    def number(key: str, default: int) -> int:
        try:
            return int(str(values.get(key, default)))
        except ValueError:
            return default

    def flag(key: str) -> bool:
        return str(values.get(key, False)).strip().lower() in ("true", "1", "yes", "on")

    def names(key: str) -> frozenset[str]:
        value = values.get(key, ())
        items = value.split(",") if isinstance(value, str) else value
        return frozenset(str(item).strip() for item in items if str(item).strip()) \
            if isinstance(items, (list, tuple)) else frozenset()

    mode = str(values.get("multi_line_output", GRID)).strip().upper()
    return ImportStyle(
        configured=True, line_length=number("line_length", 79),
        multi_line_output=WRAP_MODES.get(mode, number("multi_line_output", GRID)),
        include_trailing_comma=flag("include_trailing_comma"),
        split_on_trailing_comma=flag("split_on_trailing_comma"),
        force_single_line=flag("force_single_line"),
        known_first_party=names("known_first_party"),
        known_third_party=names("known_third_party"), source_root=root)


def name_key(name: str) -> str:
    """isort's order of imported names (``order_by_type``): CONSTANTS, Classes, functions."""
    kind = "A" if name.isupper() and len(name) > 1 else "B" if name[:1].isupper() else "C"
    return kind + name.lower()


def module_key(module: str) -> str:
    return module.lower()


# -- which names a module still uses --------------------------------------------


def used_names(module: cst.Module) -> set[str]:
    """Identifiers the module uses outside its module-level imports.

    Words in strings count (a string annotation, ``__all__``, a ``cast("Real",
    x)``), docstrings excepted: an import is only removed when nothing in the
    file could still refer to it.
    """
    collector = NameCollector()
    module.with_changes(body=[s for s in module.body if not is_import_line(s)]).visit(collector)
    return collector.names


class NameCollector(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Expr(self, node: cst.Expr) -> bool:
        # A string standing alone as a statement is a docstring (or a comment).
        return not isinstance(node.value, (cst.SimpleString, cst.ConcatenatedString))

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        self.names.update(identifier_words(node.value))

    def visit_FormattedStringText(self, node: cst.FormattedStringText) -> None:
        self.names.update(identifier_words(node.value))


def identifier_words(text: str) -> set[str]:
    words, current = set(), []
    for char in text:
        if char.isalnum() or char == "_":
            current.append(char)
        elif current:
            words.add("".join(current))
            current = []
    if current:
        words.add("".join(current))
    return words


def is_import_line(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and any(
        isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)


def bound_name(alias: cst.ImportAlias, from_import: bool) -> str:
    """The name an import alias binds (``import a.b`` binds ``a``)."""
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    dotted = cst.helpers.get_full_name_for_node(alias.name) or ""
    return dotted if from_import else dotted.split(".")[0]


def remove_unused(module: cst.Module, candidates: Iterable[str]) -> cst.Module:
    """Drop module-level imports of ``candidates`` that nothing in the module uses any more."""
    wanted = set(candidates)
    if not wanted:
        return module
    unused = wanted - used_names(module)
    if not unused:
        return module
    body: list[cst.BaseStatement] = []
    carried: Sequence[cst.EmptyLine] = ()  # comments above a removed import stay
    removed_first = False  # the file's first statement went: no blank line may lead now
    for statement in module.body:
        if carried or removed_first:
            leading = list(statement.leading_lines)
            while removed_first and leading and leading[0].comment is None:
                leading.pop(0)
            statement = statement.with_changes(leading_lines=[*carried, *leading])
            carried, removed_first = (), False
        kept = without_aliases(statement, unused) if is_import_line(statement) else statement
        if kept is None:
            assert isinstance(statement, cst.SimpleStatementLine)
            carried = [line for line in statement.leading_lines if line.comment is not None]
            removed_first = not body
            continue
        body.append(kept)
    return module.with_changes(body=body)


def without_aliases(statement: cst.BaseStatement, unused: set[str]
                    ) -> cst.BaseStatement | None:
    """``statement`` without the aliases binding ``unused`` names; None if nothing is left."""
    assert isinstance(statement, cst.SimpleStatementLine)
    smalls: list[cst.BaseSmallStatement] = []
    for small in statement.body:
        if isinstance(small, cst.ImportFrom) and isinstance(small.names, Sequence) and not (
                isinstance(small.module, cst.Name) and small.module.value == "__future__"):
            aliases = [a for a in small.names if bound_name(a, True) not in unused]
            if aliases:
                smalls.append(small.with_changes(names=with_last_comma(aliases, small.names)))
            continue
        if isinstance(small, cst.Import):
            aliases = [a for a in small.names if bound_name(a, False) not in unused]
            if aliases:
                smalls.append(small.with_changes(names=with_last_comma(aliases, small.names)))
            continue
        smalls.append(small)
    if not smalls:
        return None
    last = smalls[-1]
    smalls[-1] = last.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
    return statement.with_changes(body=smalls)


def with_last_comma(kept: list[cst.ImportAlias], original: Sequence[cst.ImportAlias]
                    ) -> list[cst.ImportAlias]:
    """``kept`` with the original last alias's comma (or none) on its last alias."""
    if kept[-1] is not original[-1]:
        kept[-1] = kept[-1].with_changes(comma=original[-1].comma)
    return kept


# -- adding names from proxy_types ----------------------------------------------


def runtime_import(statement: cst.CSTNode) -> cst.ImportFrom | None:
    """The ``from proxy_types import ...`` (no star, not relative) of a statement line."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return None
    for small in statement.body:
        if (isinstance(small, cst.ImportFrom) and not small.relative
                and isinstance(small.module, cst.Name) and small.module.value == RUNTIME_MODULE
                and not isinstance(small.names, cst.ImportStar)):
            return small
    return None


def module_level_names(module: cst.Module) -> dict[str, bool]:
    """Names bound at module level, mapped to True if imported from proxy_types."""
    scopes = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    scope = scopes.get(module)
    found: dict[str, bool] = {}
    if scope is None:
        return found
    for assignment in scope.assignments:
        node = getattr(assignment, "node", None)
        from_runtime = (
            isinstance(node, cst.ImportFrom) and runtime_import(
                cst.SimpleStatementLine([node])) is not None
            and imports_unaliased(node, assignment.name)
        )
        found[assignment.name] = found.get(assignment.name, True) and from_runtime
    return found


def imports_unaliased(node: cst.ImportFrom, name: str) -> bool:
    if isinstance(node.names, cst.ImportStar):
        return False
    return any(
        isinstance(alias.name, cst.Name) and alias.name.value == name and alias.asname is None
        for alias in node.names
    )


def add_imports(module: cst.Module, names: Sequence[str], style: ImportStyle) -> cst.Module:
    """Import ``names`` from proxy_types once: merged into an existing import, or a new one."""
    existing = module_level_names(module)
    missing = sorted({name for name in names if not existing.get(name, False)}, key=name_key)
    if not missing:
        return module
    body = list(module.body)
    for index, statement in enumerate(body):
        found = runtime_import(statement)
        if found is None:
            continue
        if style.force_single_line:
            new_lines = [single_import([name], style) for name in missing]
            body[index + 1:index + 1] = new_lines
            return module.with_changes(body=body)
        merged = merged_import(statement, found, missing, style, module.default_newline)
        body[index] = merged
        return module.with_changes(body=body)
    lines = ([single_import([name], style) for name in missing] if style.force_single_line
             else [single_import(missing, style)])
    return insert_new_import(module, lines, style)


def merged_import(statement: cst.BaseStatement, found: cst.ImportFrom, missing: Sequence[str],
                  style: ImportStyle, newline: str) -> cst.SimpleStatementLine:
    """``found`` with ``missing`` added: laid out again as isort would when the project
    configures isort, else in the existing layout (sorted place if it was sorted)."""
    assert isinstance(found.names, Sequence) and isinstance(statement, cst.SimpleStatementLine)
    aliases = list(found.names)
    plain = all(a.asname is None and isinstance(a.name, cst.Name) for a in aliases)
    has_comments = "#" in cst.Module([]).code_for_node(found)
    if style.configured and plain and not has_comments and len(statement.body) == 1:
        current = [a.name.value for a in aliases if isinstance(a.name, cst.Name)]
        trailing = isinstance(aliases[-1].comma, cst.Comma) and bool(found.lpar)
        text = import_text(sorted({*current, *missing}, key=name_key), style,
                           magic_comma=trailing and style.split_on_trailing_comma)
        new = cst.parse_statement(text + newline)
        assert isinstance(new, cst.SimpleStatementLine)
        return new.with_changes(leading_lines=statement.leading_lines,
                                trailing_whitespace=statement.trailing_whitespace)
    merged: cst.SimpleStatementLine = statement.with_changes(body=[
        merge_aliases(found, missing) if small is found else small for small in statement.body])
    return merged


def merge_aliases(statement: cst.ImportFrom, missing: Sequence[str]) -> cst.ImportFrom:
    """Add ``missing`` to the names, each at its sorted place if the names are sorted."""
    assert isinstance(statement.names, Sequence)
    aliases = list(statement.names)
    shown = [cst.helpers.get_full_name_for_node(a.name) or "" for a in aliases]
    is_sorted = shown == sorted(shown, key=name_key)
    separator = aliases[0].comma if len(aliases) > 1 and isinstance(aliases[0].comma, cst.Comma) \
        else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    trailing = aliases[-1].comma
    result = [a.with_changes(comma=separator) for a in aliases]
    for name in missing:
        new = cst.ImportAlias(cst.Name(name), comma=separator)
        position = len(result)
        if is_sorted:
            position = next((i for i, a in enumerate(result)
                             if name_key(cst.helpers.get_full_name_for_node(a.name) or "")
                             > name_key(name)), len(result))
        result.insert(position, new)
    result[-1] = result[-1].with_changes(comma=trailing)
    return statement.with_changes(names=result)


def import_text(names: Sequence[str], style: ImportStyle, magic_comma: bool = False) -> str:
    """``from proxy_types import ...`` wrapped as isort wraps it."""
    head = f"from {RUNTIME_MODULE} import "
    one_line = head + ", ".join(names)
    if len(one_line) <= style.line_length and not magic_comma:
        return one_line
    if style.multi_line_output == GRID:  # isort's wrap_modes.grid
        indent = "\n" + " " * (len(head) + 1)
        text = f"{head}({names[0]}"
        for name in names[1:]:
            if len(f"{text}, {name}".split("\n")[-1]) + 1 > style.line_length:
                text += "," + indent + name
            else:
                text += ", " + name
        return text + ("," if style.include_trailing_comma else "") + ")"
    body = "".join(f"    {name},\n" for name in names)
    if not style.include_trailing_comma:
        body = body[:-2] + "\n"
    return f"{head}(\n{body})"


def single_import(names: Sequence[str], style: ImportStyle) -> cst.SimpleStatementLine:
    statement = cst.parse_statement(import_text(names, style) + "\n")
    assert isinstance(statement, cst.SimpleStatementLine)
    return statement


def insert_new_import(module: cst.Module, lines: Sequence[cst.SimpleStatementLine],
                      style: ImportStyle) -> cst.Module:
    """Insert a new ``from proxy_types import`` where isort would put it."""
    body = list(module.body)
    block = top_import_block(body)
    section = style.section_of(RUNTIME_MODULE)
    own_key = (section, 1, module_key(RUNTIME_MODULE))
    position = None
    for index in block:
        key = import_key(body[index], style)
        if key is not None and key > own_key:
            position = index
            break
    blank = cst.EmptyLine()
    if not block:
        position = docstring_end(body)
        first = lines[0].with_changes(leading_lines=[blank] if position else [])
        after = body[position] if position < len(body) else None
        if after is not None:  # isort's lines_after_imports: two before a definition
            wanted = 2 if isinstance(after, (cst.FunctionDef, cst.ClassDef)) else 1
            above = list(after.leading_lines)
            missing = wanted - sum(1 for line in above if line.comment is None)
            body[position] = after.with_changes(leading_lines=[blank] * max(missing, 0) + above)
        body[position:position] = [first, *lines[1:]]
        return module.with_changes(body=body)
    if position is None:
        position = block[-1] + 1
    before = import_key(body[position - 1], style) if position - 1 in block else None
    after_key = import_key(body[position], style) if position in block else None
    first = lines[0]
    if before is not None and before[0] != section:
        first = first.with_changes(leading_lines=[blank])  # a new section: one blank line
    elif position in block:
        # Takes the place (and the comments above) of the statement it precedes.
        following = body[position]
        first = first.with_changes(leading_lines=following.leading_lines)
        body[position] = following.with_changes(
            leading_lines=[blank] if after_key is not None and after_key[0] != section else [])
    body[position:position] = [first, *lines[1:]]
    return module.with_changes(body=body)


def import_key(statement: cst.BaseStatement, style: ImportStyle) -> tuple[int, int, str] | None:
    """(section, 0 for ``import``/1 for ``from``, module) as isort orders statements."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return None
    small = statement.body[0] if statement.body else None
    if isinstance(small, cst.Import):
        name = cst.helpers.get_full_name_for_node(small.names[0].name) or ""
        return (style.section_of(name), 0, module_key(name))
    if isinstance(small, cst.ImportFrom):
        module = (cst.helpers.get_full_name_for_node(small.module) if small.module else "") or ""
        return (style.section_of(module, bool(small.relative)), 1, module_key(module))
    return None


def top_import_block(body: Sequence[cst.BaseStatement]) -> list[int]:
    """Indexes of the module-level imports at the top, before any other code."""
    block = []
    for index, statement in enumerate(body):
        if is_import_line(statement):
            block.append(index)
        elif not (index == 0 and is_docstring(statement)):
            break
    return block


def is_docstring(statement: cst.BaseStatement) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


def docstring_end(body: Sequence[cst.BaseStatement]) -> int:
    return 1 if body and is_docstring(body[0]) else 0


def restyled(style: ImportStyle, **changes: object) -> ImportStyle:
    """``style`` with some settings changed (for tests and callers with their own root)."""
    return replace(style, **changes)  # type: ignore[arg-type]
