/* Compiled is_static_number / is_dynamic_number (optional; see setup.py).
 *
 * The same lookup as the pure-Python guards in _guards.py, without a Python
 * frame: a Python function costs 1.6x an empty call just to look its answer
 * up, issue #16 allows 1.3x.  Nothing is decided here: the answer dicts and
 * the classify function that fills them on a miss are _guards.py's own,
 * handed over by install(), so _table.py stays the one source of truth.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *static_answers = NULL;  /* dict: class -> bool */
static PyObject *dynamic_answers = NULL; /* dict: class -> bool */
static PyObject *classify = NULL;        /* class -> (is static, is dynamic) */

/* The answer for type(x): answers[type(x)], else classify(type(x))[index]. */
static PyObject *
answer(PyObject *answers, Py_ssize_t index, PyObject *x)
{
    PyObject *cls = (PyObject *)Py_TYPE(x);
    PyObject *found;
    PyObject *both;
    PyObject *result;

    if (answers == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "proxy_types._speedups: install() has not been called");
        return NULL;
    }
    found = PyDict_GetItemWithError(answers, cls);
    if (found != NULL) {
        Py_INCREF(found);
        return found;
    }
    if (PyErr_Occurred()) {
        /* A metaclass whose __hash__ raises: like the Python guard, let
           classify answer (it never raises); anything else propagates. */
        if (!PyErr_ExceptionMatches(PyExc_Exception)) {
            return NULL;
        }
        PyErr_Clear();
    }
    both = PyObject_CallOneArg(classify, cls);
    if (both == NULL) {
        return NULL;
    }
    if (!PyTuple_Check(both) || PyTuple_GET_SIZE(both) != 2) {
        Py_DECREF(both);
        PyErr_SetString(PyExc_TypeError,
                        "proxy_types._speedups: classify must return a pair of bools");
        return NULL;
    }
    result = PyTuple_GET_ITEM(both, index);
    Py_INCREF(result);
    Py_DECREF(both);
    return result;
}

/* The one argument ``x``, positional or by keyword, as the Python guards take it. */
static PyObject *
only_argument(const char *name, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t nkeywords = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);

    if (nargs == 1 && nkeywords == 0) {
        return args[0];
    }
    if (nargs == 0 && nkeywords == 1) {
        PyObject *keyword = PyTuple_GET_ITEM(kwnames, 0);
        if (PyUnicode_CompareWithASCIIString(keyword, "x") == 0) {
            return args[0];
        }
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'",
                     name, keyword);
        return NULL;
    }
    PyErr_Format(PyExc_TypeError, "%s() takes exactly one argument (x), got %zd",
                 name, nargs + nkeywords);
    return NULL;
}

static PyObject *
is_static_number(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *x = only_argument("is_static_number", args, nargs, kwnames);
    return x == NULL ? NULL : answer(static_answers, 0, x);
}

static PyObject *
is_dynamic_number(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *x = only_argument("is_dynamic_number", args, nargs, kwnames);
    return x == NULL ? NULL : answer(dynamic_answers, 1, x);
}

static PyObject *
install(PyObject *module, PyObject *args)
{
    PyObject *new_static, *new_dynamic, *new_classify;

    if (!PyArg_ParseTuple(args, "O!O!O:install", &PyDict_Type, &new_static,
                          &PyDict_Type, &new_dynamic, &new_classify)) {
        return NULL;
    }
    if (!PyCallable_Check(new_classify)) {
        PyErr_SetString(PyExc_TypeError, "install: classify must be callable");
        return NULL;
    }
    Py_INCREF(new_static);
    Py_INCREF(new_dynamic);
    Py_INCREF(new_classify);
    Py_XSETREF(static_answers, new_static);
    Py_XSETREF(dynamic_answers, new_dynamic);
    Py_XSETREF(classify, new_classify);
    Py_RETURN_NONE;
}

/* The docstrings are _guards.py's; tests/runtime/test_compiled_guards.py compares them. */
static PyMethodDef methods[] = {
    {"is_static_number", (PyCFunction)(void (*)(void))is_static_number,
     METH_FASTCALL | METH_KEYWORDS,
     "is_static_number($module, /, x)\n--\n\n"
     "True for genuine static numbers: bool, int, float, complex and subclasses.\n\n"
     "False for proxies, torch Sym types and registered dynamic types, even those\n"
     "that inherit from a builtin number class.  Never raises."},
    {"is_dynamic_number", (PyCFunction)(void (*)(void))is_dynamic_number,
     METH_FASTCALL | METH_KEYWORDS,
     "is_dynamic_number($module, /, x)\n--\n\n"
     "True for proxies, torch SymInt/SymFloat/SymBool (when torch is already\n"
     "imported) and registered dynamic types.  Never raises."},
    {"install", install, METH_VARARGS,
     "install($module, static_answers, dynamic_answers, classify, /)\n--\n\n"
     "Use these answer dicts and this classify(cls) -> (static, dynamic) for misses."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "proxy_types._speedups",
    "Compiled guards for proxy_types._guards (optional).", -1, methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module_definition);
}
