"""Scratch arrays on the stack, for kernels compiled without numba's runtime.

A :data:`~crusadegym.core.jit.jit` kernel may not call ``np.empty`` (that needs
numba's reference-counted runtime, NRT). :func:`stack_empty` gives it the same
uninitialised scratch from its own stack frame instead: no ``malloc``/``free``, no
reference count, and the space is reserved once, in the kernel's entry block, even
when the call sits in a loop. Sizes must be compile-time constants (module-level
ints such as ``N_CELLS``), so the frame size is fixed.

Rules (the same as for any stack memory): the array lives until the kernel that
called :func:`stack_empty` returns, so it may be passed down to callees but never
returned or stored (``tests/test_jit_runtime.py`` checks that no ``jit`` kernel
returns an array).
"""

from __future__ import annotations

from numba import types
from numba.core.errors import TypingError
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


def _element_type(fname: str, dtype: types.Type) -> types.Type:
    if isinstance(dtype, types.DType):
        return dtype.dtype
    if isinstance(dtype, types.NumberClass):
        return dtype.instance_type
    raise TypingError(f"{fname}: dtype must be a numpy type such as np.int64, got {dtype}")


def _constant(fname: str, value: types.Type) -> int:
    if not isinstance(value, types.IntegerLiteral) or value.literal_value < 1:
        raise TypingError(
            f"{fname}: sizes must be positive module-level int constants, got {value}"
        )
    return value.literal_value


def _codegen(elem: types.Type, shape: tuple[int, ...]):
    arrty = types.Array(elem, len(shape), "C")

    def codegen(context, builder, sig, args):
        lltype = context.get_data_type(elem)
        itemsize = context.get_abi_sizeof(lltype)
        count = 1
        for n in shape:
            count *= n
        with builder.goto_entry_block():
            data = builder.alloca(lltype, size=context.get_constant(types.intp, count))
            data.align = 16
        intp = context.get_value_type(types.intp)
        strides, step = [], itemsize
        for n in reversed(shape):
            strides.insert(0, intp(step))
            step *= n
        ary = make_array(arrty)(context, builder)
        populate_array(
            ary,
            data=data,
            shape=[intp(n) for n in shape],
            strides=strides,
            itemsize=intp(itemsize),
            meminfo=None,
        )
        return ary._getvalue()

    return arrty, codegen


@intrinsic
def stack_empty(typingctx, rows, cols, dtype):
    """An uninitialised C-contiguous ``[rows, cols]`` array of ``dtype`` on the stack."""
    shape = (_constant("stack_empty", rows), _constant("stack_empty", cols))
    arrty, codegen = _codegen(_element_type("stack_empty", dtype), shape)
    return arrty(rows, cols, dtype), codegen


@intrinsic
def stack_row(typingctx, n, dtype):
    """An uninitialised 1-D array of ``n`` entries of ``dtype`` on the stack."""
    arrty, codegen = _codegen(_element_type("stack_row", dtype), (_constant("stack_row", n),))
    return arrty(n, dtype), codegen
