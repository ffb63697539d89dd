"""The functions of the .uap language, in one table: the parser reads their names and arities, the
lowering to SymPy their constructors. The named FFN activations (`ffn NAME`) are a second table
here, in the order the parser lists them, and the functions of `expect ... layers EXPR` a third (the
parser checks them, the expectation check evaluates them).

SymPy is imported when a constructor first runs, not when this module is imported, so the parser
stays free of it. The certificate verifier (uapcheck/verifier/kernels.py) and the simulator
(uapcheck/simulate/evaluate.py) keep their own definitions on purpose (a second implementation to
check against); tests/test_functions.py checks they cover exactly these names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Function:
    """A function of .uap expressions: how many arguments it takes and its SymPy constructor."""

    arity: int
    build: Callable[..., Any]  # SymPy expressions → a SymPy expression


def _sympy(name: str) -> Callable[..., Any]:
    """SymPy's own function `name` (a fixed attribute of the sympy module, looked up on first use)."""
    def build(*args: Any) -> Any:
        import sympy
        return getattr(sympy, name)(*args)
    build.__name__ = name
    return build


def sigmoid(z):
    from sympy import exp
    return 1 / (1 + exp(-z))


def softplus(z):
    from sympy import exp, log
    return log(1 + exp(z))


def elu(z):
    from sympy import Piecewise, exp
    return Piecewise((z, z > 0), (exp(z) - 1, True))


def gelu(z):
    from sympy import erf, sqrt
    return z * (1 + erf(z / sqrt(2))) / 2


def silu(z):
    from sympy import exp
    return z / (1 + exp(-z))


def relu(z):
    from sympy import Max
    return Max(0, z)


def leaky_relu(z):
    from sympy import Max
    return Max(z, z / 100)


def identity(z):
    return z


FUNCTIONS: dict[str, Function] = {
    "exp": Function(1, _sympy("exp")), "log": Function(1, _sympy("log")), "sqrt": Function(1, _sympy("sqrt")),
    "sin": Function(1, _sympy("sin")), "cos": Function(1, _sympy("cos")), "tan": Function(1, _sympy("tan")),
    "sinh": Function(1, _sympy("sinh")), "cosh": Function(1, _sympy("cosh")), "tanh": Function(1, _sympy("tanh")),
    "sigmoid": Function(1, sigmoid), "softplus": Function(1, softplus), "erf": Function(1, _sympy("erf")),
    "relu": Function(1, relu), "elu": Function(1, elu), "gelu": Function(1, gelu), "silu": Function(1, silu),
    "abs": Function(1, _sympy("Abs")), "max": Function(2, _sympy("Max")), "min": Function(2, _sympy("Min")),
}

#: `ffn NAME`: σ as a constructor of one SymPy argument, in the order error messages list them.
ACTIVATIONS: dict[str, Callable[[Any], Any]] = {
    "relu": relu, "leaky_relu": leaky_relu, "gelu": gelu, "tanh": FUNCTIONS["tanh"].build,
    "sigmoid": sigmoid, "softplus": softplus, "elu": elu, "silu": silu, "sin": FUNCTIONS["sin"].build,
    "identity": identity,
}

#: `expect uap layers EXPR`: the integer functions a layer count is written with.
LAYER_FUNCTIONS: dict[str, Function] = {
    "ceil": Function(1, _sympy("ceiling")), "ceiling": Function(1, _sympy("ceiling")),
    "floor": Function(1, _sympy("floor")), "max": Function(2, _sympy("Max")), "min": Function(2, _sympy("Min")),
}
