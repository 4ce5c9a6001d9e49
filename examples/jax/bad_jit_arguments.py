"""Arguments of a jax.jit function are tracers: Python cannot branch on them or
convert them, and jax raises at the first call (TracerBoolConversionError,
ConcretizationTypeError).  Checked with the jax preset: proxy-types init --preset jax."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import jit


@jax.jit
def boost(x: jax.Array, factor: float) -> jax.Array:
    if factor > 1.0:  # expect: proxy-concretize
        return x * factor
    return x


@jit
def ones(count: int) -> jax.Array:
    return jnp.ones(int(count))  # expect: proxy-concretize
