"""``proxy-types explain`` and the code documentation it shares with SARIF."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mypy_plugin.errors import ALL_CODES
from mypy_plugin.cli.explain import EXPLANATIONS, explain_code, explanation_markdown, valid_codes

RunCli = Callable[..., subprocess.CompletedProcess[str]]  # the run_cli fixture


def test_explain_known_code(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("explain", "proxy-concretize", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert text.startswith("proxy-concretize: ")
    for heading in ("Wrong:", "Right:", "Suppress"):
        assert heading in text
    assert "# type: ignore[proxy-concretize]" in text
    assert "disable_error_code = proxy-concretize" in text
    assert text.index("float(p)") < text.index("Right:") < text.index("to_static(p)")


def test_explain_unknown_code(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("explain", "proxy-nonsense", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert "proxy-nonsense" in lines[0]
    for code in ALL_CODES:
        assert code.code in lines[0]


def test_explain_without_code_lists_codes(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("explain", cwd=tmp_path)
    assert result.returncode == 0
    listed = [line.split()[0] for line in result.stdout.splitlines()]
    assert listed == ["proxy-isinstance", "proxy-concretize", "proxy-base", "proxy-config",
                      "proxy-cast", "proxy-specialize", "proxy-internal", "truthy-bool"]


def test_every_plugin_code_is_explained_and_nothing_else() -> None:
    plugin_codes = {code.code for code in ALL_CODES}
    assert plugin_codes <= set(EXPLANATIONS)
    assert set(EXPLANATIONS) == set(valid_codes())


@pytest.mark.parametrize("code", sorted(EXPLANATIONS))
def test_explanation_examples_differ_and_render(code: str) -> None:
    explanation = EXPLANATIONS[code]
    assert explanation.wrong.strip() != explanation.right.strip()
    assert code in explain_code(code)
    markdown = explanation_markdown(code)
    assert markdown.count("```") == 4  # a wrong and a right block


def test_isinstance_right_example_keeps_the_kind_check() -> None:
    """The fixed check accepts an int or a SymInt and still rejects floats, static or not."""
    pytest.importorskip("torch")
    from torch._dynamo.source import ConstantSource
    from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv

    shape_env = ShapeEnv()

    def symbol(hint: float, name: str) -> object:
        return shape_env.create_symbol(hint, ConstantSource(name), dynamic_dim=DimDynamic.DYNAMIC)

    sym_int = shape_env.create_symintnode(symbol(4, "n"), hint=4)
    sym_float = shape_env.create_symfloatnode(symbol(2.5, "f"), hint=2.5)
    wrong: dict[str, object] = {}
    right: dict[str, object] = {}
    exec(EXPLANATIONS["proxy-isinstance"].wrong, wrong)
    exec(EXPLANATIONS["proxy-isinstance"].right, right)
    wrong_shape, right_shape = wrong["layer_norm_shape"], right["layer_norm_shape"]
    assert callable(wrong_shape) and callable(right_shape)
    with pytest.raises(TypeError):
        wrong_shape(sym_int)  # the bug the code reports
    assert right_shape(sym_int) == (sym_int,)
    for shape in (wrong_shape, right_shape):
        assert shape(4) == (4,)
        for not_an_integer in (2.5, sym_float, "4"):
            with pytest.raises(TypeError):
                shape(not_an_integer)


def test_config_explanation_has_no_line_to_ignore(run_cli: RunCli, tmp_path: Path) -> None:
    text = run_cli("explain", "proxy-config", cwd=tmp_path).stdout
    assert "type: ignore" not in text and "disable_error_code" not in text
    assert "correct or remove the entry" in text
    assert "type: ignore" not in explanation_markdown("proxy-config")
    assert "type: ignore[proxy-cast]" in explanation_markdown("proxy-cast")


# -- explain needs no mypy, and takes any case -------------------------------------

_WITHOUT_MYPY = """\
import sys
from importlib.abc import MetaPathFinder


class NoMypy(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "mypy":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NoMypy())
from mypy_plugin.cli import main

sys.exit(main(sys.argv[1:]))
"""


def run_without_mypy(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "no_mypy.py"
    script.write_text(_WITHOUT_MYPY, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_explain_works_without_mypy_and_says_the_same(tmp_path: Path, run_cli: RunCli) -> None:
    for args in (("explain",), ("explain", "proxy-specialize"), ("explain", "truthy-bool")):
        alone = run_without_mypy(tmp_path, *args)
        assert alone.returncode == 0, alone.stderr
        assert alone.stdout == run_cli(*args, cwd=tmp_path).stdout
    needs = run_without_mypy(tmp_path, "check", ".")
    assert needs.returncode == 2 and "this command needs mypy" in needs.stderr


def test_explain_takes_any_case(tmp_path: Path, run_cli: RunCli) -> None:
    upper = run_cli("explain", "PROXY-ISINSTANCE", cwd=tmp_path)
    assert upper.returncode == 0, upper.stderr
    assert upper.stdout == run_cli("explain", "proxy-isinstance", cwd=tmp_path).stdout
    assert run_cli("explain", "PROXY-NOPE", cwd=tmp_path).returncode == 2
