/* The Python binding, yukon.solver._core: reads the position and options that solver/search.py passes
 * into a search_args_t, runs the search without the GIL, and gives back its verdict and line. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"
#include "interleave.h"
#include "two_deck.h"

/* Reads a sequence of at most ``max`` cards into ``dst``; their number, or -1 with a Python error set. */
static Py_ssize_t read_cards(PyObject *seq, uint8_t *dst, Py_ssize_t max, const char *what) {
    Py_ssize_t n = PySequence_Length(seq);
    if (n < 0 || n > max) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "bad %s", what);
        return -1;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *c = PySequence_GetItem(seq, j);
        long v = c ? PyLong_AsLong(c) : -1;
        Py_XDECREF(c);
        if (v < 0 || v >= NCARDS) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "bad card in the %s", what);
            return -1;
        }
        dst[j] = (uint8_t)v;
    }
    return n;
}

/* The four foundation heights into ``height``; their sum, or -1 with a Python error set. */
static int read_heights(PyObject *heights, uint8_t *height) {
    int total = 0;
    for (int u = 0; u < 4; u++) {
        PyObject *h = PySequence_GetItem(heights, u);
        long v = h ? PyLong_AsLong(h) : -1;
        Py_XDECREF(h);
        if (v < 0 || v > 13) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad foundation height");
            return -1;
        }
        height[u] = (uint8_t)v;
        total += (int)v;
    }
    return total;
}

/* The build table (which card fits on which) and rule 1's safe table into ``fits`` and ``safe``; both
 * buffers are released. NULL, or what is wrong with them. */
static const char *copy_tables(Py_buffer *fits_buf, Py_buffer *safe_buf, uint8_t *fits, uint8_t *safe) {
    const char *bad = fits_buf->len != NCARDS * NCARDS ? "fits must hold 52*52 bytes (yukon.rules.build_table)"
                      : safe_buf->len != NCARDS * 4    ? "safe must hold 52*4 bytes (yukon.rules.safe_table)"
                                                       : NULL;
    if (!bad) {
        memcpy(fits, fits_buf->buf, NCARDS * NCARDS);
        memcpy(safe, safe_buf->buf, NCARDS * 4);
    }
    PyBuffer_Release(fits_buf);
    if (safe_buf->obj) PyBuffer_Release(safe_buf);
    return bad;
}

/* The columns, face-down counts, foundation heights, stock and waste into ``a``: 0, or -1 with a Python
 * error set. */
static int read_position(search_args_t *a, PyObject *columns, PyObject *down_obj, PyObject *heights_obj,
                         PyObject *stock_obj, PyObject *waste_obj) {
    Py_ssize_t ncols = PySequence_Length(columns);
    if (ncols < 1 || ncols > MAXCOLS) {
        PyErr_SetString(PyExc_ValueError, "between 1 and 16 columns");
        return -1;
    }
    a->ncols = (int)ncols;
    int total = 0;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        PyObject *col = PySequence_GetItem(columns, i);
        PyObject *d = PySequence_GetItem(down_obj, i);
        if (!col || !d) {
            Py_XDECREF(col);
            Py_XDECREF(d);
            return -1;
        }
        Py_ssize_t n = read_cards(col, a->cols[i], MAXLEN, "column");
        Py_DECREF(col);
        long dn = PyLong_AsLong(d);
        Py_DECREF(d);
        if (n < 0 || dn < 0 || dn > n || (n && dn == n)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad column");
            return -1;
        }
        a->len[i] = (uint8_t)n;
        a->down[i] = (uint8_t)dn;
        total += (int)n;
    }
    int up = read_heights(heights_obj, a->height);
    if (up < 0) return -1;
    total += up;
    a->has_stock = stock_obj != Py_None;
    for (int w = 0; w < 2 && a->has_stock; w++) {
        PyObject *seq = w ? waste_obj : stock_obj;
        uint8_t *dst = w ? a->waste : a->stock;
        Py_ssize_t n = seq == Py_None ? 0 : read_cards(seq, dst, NCARDS, w ? "waste" : "stock");
        if (n < 0) return -1;
        if (w)
            a->nwaste = (int)n;
        else
            a->nstock = (int)n;
        total += (int)n;
    }
    if (total != NCARDS) {
        PyErr_SetString(PyExc_ValueError, "the position must hold 52 cards");
        return -1;
    }
    return 0;
}

/* The stop event's ``is_set``, called by the search's first thread with the GIL taken for a moment. */
typedef struct {
    PyObject *callable;
    PyThreadState *tstate; /* the thread's state while the GIL is released */
} stop_poll_t;

static int poll_stop_callable(void *arg) {
    stop_poll_t *poll = arg;
    PyEval_RestoreThread(poll->tstate);
    PyObject *res = PyObject_CallNoArgs(poll->callable);
    int stopped = res ? PyObject_IsTrue(res) : 1;
    Py_XDECREF(res);
    if (!res) PyErr_Clear();
    poll->tstate = PyEval_SaveThread();
    return stopped;
}

/* A search's arguments as search_run (one deck) or td_search_run (two decks) take them. */
typedef void (*search_entry_t)(const void *args, search_result_t *res);

static void one_deck_entry(const void *args, search_result_t *res) { search_run(args, res); }
static void two_deck_entry(const void *args, search_result_t *res) { td_search_run(args, res); }

/* Runs ``entry`` on ``args`` without the GIL, ``*stop_fn`` polling the event ``stop`` (None: no event). */
static void run_released(search_entry_t entry, void *args, int (**stop_fn)(void *), void **stop_arg, PyObject *stop,
                         search_result_t *res) {
    stop_poll_t poll = {stop, NULL};
    if (stop != Py_None) {
        *stop_fn = poll_stop_callable;
        *stop_arg = &poll;
    }
    poll.tstate = PyEval_SaveThread();
    entry(args, res);
    PyEval_RestoreThread(poll.tstate);
}

/* The search's answer, (status, line, nodes, peak_table, seconds, reason), from ``res`` (whose line it frees);
 * NULL with a Python error set where the search failed: its reason, or no memory. */
static PyObject *result_value(search_result_t *res) {
    PyObject *line = NULL;
    if (res->status == ST_ERROR) {
        if (res->reason && res->reason[0])
            PyErr_SetString(PyExc_RuntimeError, res->reason);
        else
            PyErr_NoMemory();
    } else {
        line = PyList_New(res->nline);
        for (int i = 0; line && i < res->nline; i++) {
            move_t m = res->line[i];
            PyObject *t = Py_BuildValue("(iiii)", m.src, m.dst, m.card == NO_CARD ? -1 : m.card, m.count);
            if (!t) {
                Py_CLEAR(line);
                break;
            }
            PyList_SET_ITEM(line, i, t);
        }
    }
    free(res->line);
    if (!line) return NULL;
    static const char *names[] = {"won", "lost", "unknown"};
    return Py_BuildValue("(sNLKds)", names[res->status], line, res->nodes, (unsigned long long)res->peak,
                         res->seconds, res->reason);
}

static PyObject *search(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"columns", "down", "heights", "fits", "build", "kings_only", "foundation_return",
                             "node_limit", "time_limit", "memory_limit", "stop", "stock", "waste", "threads",
                             "switch_at", "merge", "sleep", "links", "verify_links", "safe", "interleave", "blocks", "relax",
                             NULL};
    PyObject *columns, *down_obj, *heights_obj, *stop = Py_None, *stock_obj = Py_None, *waste_obj = Py_None;
    Py_buffer fits, safe = {0};
    long long memory_limit;
    search_args_t *a = calloc(1, sizeof *a);
    if (!a) return PyErr_NoMemory();
    a->threads = 1;
    a->switch_at = 2000000;
    a->merge = a->sleep = a->links = a->blocks = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOy*iiiLdL|OOOiLppppy*ppp", kwlist, &columns, &down_obj, &heights_obj,
                                     &fits, &a->build, &a->kings_only, &a->foundation_return, &a->node_limit,
                                     &a->time_limit, &memory_limit, &stop, &stock_obj, &waste_obj, &a->threads,
                                     &a->switch_at, &a->merge, &a->sleep, &a->links, &a->verify_links, &safe,
                                     &a->interleave, &a->blocks, &a->relax)) {
        free(a);
        return NULL;
    }
    const char *bad = copy_tables(&fits, &safe, a->fits, a->safe);
    if (bad) {
        free(a);
        PyErr_SetString(PyExc_ValueError, bad);
        return NULL;
    }
    a->memory_limit = memory_limit > 0 ? (uint64_t)memory_limit : 0;
    if (read_position(a, columns, down_obj, heights_obj, stock_obj, waste_obj) < 0) {
        free(a);
        return NULL;
    }
    search_result_t res;
    run_released(one_deck_entry, a, &a->stop, &a->stop_arg, stop, &res);
    free(a);
    return result_value(&res);
}

/* (tests) The cards the search's rule 1 calls safe at these foundation heights, as a bit mask. */
static PyObject *safe_cards(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer safe;
    PyObject *heights;
    if (!PyArg_ParseTuple(args, "y*O", &safe, &heights)) return NULL;
    if (safe.len != NCARDS * 4) {
        PyBuffer_Release(&safe);
        PyErr_SetString(PyExc_ValueError, "safe must hold 52*4 bytes (yukon.rules.safe_table)");
        return NULL;
    }
    rules_t r;
    state_t s;
    memcpy(r.safe, safe.buf, NCARDS * 4);
    PyBuffer_Release(&safe);
    if (read_heights(heights, s.height) < 0) return NULL;
    uint64_t mask = 0;
    for (int c = 0; c < NCARDS; c++)
        if (safe_foundation_card(&r, &s, c)) mask |= 1ULL << c;
    return PyLong_FromUnsignedLongLong(mask);
}

/* Rule 4 on one position, as the search asks it at a class it enters (the tests compare it with the
 * Python closure, relaxation.never_up). */
static PyObject *relaxed_lost_py(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"columns", "down", "heights", "fits", "kings_only", "foundation_return", NULL};
    PyObject *columns, *down, *heights;
    Py_buffer fits;
    int kings_only, foundation_return;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOy*pp", kwlist, &columns, &down, &heights, &fits, &kings_only,
                                     &foundation_return))
        return NULL;
    search_args_t *a = calloc(1, sizeof(search_args_t));
    if (!a) {
        PyBuffer_Release(&fits);
        return PyErr_NoMemory();
    }
    int bad_fits = fits.len != NCARDS * NCARDS;
    if (!bad_fits) memcpy(a->fits, fits.buf, NCARDS * NCARDS);
    PyBuffer_Release(&fits);
    if (bad_fits) {
        free(a);
        PyErr_SetString(PyExc_ValueError, "fits must hold 52*52 bytes (yukon.rules.build_table)");
        return NULL;
    }
    a->kings_only = kings_only;
    a->foundation_return = foundation_return;
    if (read_position(a, columns, down, heights, Py_None, Py_None) < 0) {
        free(a);
        return NULL;
    }
    int lost = relaxed_lost_at(a);
    free(a);
    if (lost < 0) return PyErr_NoMemory();
    return PyBool_FromLong(lost);
}

static PyObject *release_memory(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    spare_release();
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ the two-deck search (two_deck.c) */

static PyObject *search_two_deck(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"columns", "down", "piles", "stock", "fits", "safe", "kings_only", "foundation_return",
                             "total", "node_limit", "time_limit", "memory_limit", "stop", "best_first", "shorten",
                             NULL};
    PyObject *columns, *down_obj, *piles_obj, *stock_obj, *stop = Py_None;
    Py_buffer fits, safe;
    long long memory_limit;
    int best_first = 0, shorten = 0;
    td_args_t *a = calloc(1, sizeof *a);
    if (!a) return PyErr_NoMemory();
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOy*y*iiiLdL|Oip", kwlist, &columns, &down_obj, &piles_obj,
                                     &stock_obj, &fits, &safe, &a->kings_only, &a->foundation_return, &a->total,
                                     &a->node_limit, &a->time_limit, &memory_limit, &stop, &best_first,
                                     &shorten)) {
        free(a);
        return NULL;
    }
    const char *bad = copy_tables(&fits, &safe, a->fits, a->safe);
    a->best_first = best_first;
    a->shorten = shorten;
    a->memory_limit = memory_limit > 0 ? (uint64_t)memory_limit : 0;
    Py_ssize_t ncols = bad ? 0 : PySequence_Length(columns);
    Py_ssize_t npiles = bad ? 0 : PySequence_Length(piles_obj);
    if (!bad && (ncols < 1 || ncols > TD_MAXCOLS)) bad = "between 1 and 16 columns";
    if (!bad && (npiles < 1 || npiles > TD_MAXPILES)) bad = "between 1 and 8 foundation piles";
    if (bad) {
        free(a);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, bad);
        return NULL;
    }
    a->ncols = (int)ncols;
    a->npiles = (int)npiles;
    int total = 0, hidden = 0;
    for (Py_ssize_t i = 0; i < ncols + npiles; i++) {
        int is_col = i < ncols;
        PyObject *seq = PySequence_GetItem(is_col ? columns : piles_obj, is_col ? i : i - ncols);
        PyObject *d = is_col ? PySequence_GetItem(down_obj, i) : NULL;
        Py_ssize_t n = seq ? read_cards(seq, is_col ? a->cols[i] : a->pile[i - ncols], is_col ? TD_CARDS : 13,
                                           is_col ? "column" : "foundation pile")
                           : -1;
        Py_XDECREF(seq);
        long dn = 0;
        if (is_col) {
            dn = d ? PyLong_AsLong(d) : -1;
            Py_XDECREF(d);
        }
        if (n < 0 || dn < 0 || dn > n || (n && dn == n)) {
            free(a);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad column");
            return NULL;
        }
        if (is_col) {
            a->len[i] = (uint8_t)n;
            a->down[i] = (uint8_t)dn;
            hidden += (int)dn;
        } else {
            const uint8_t *pile = a->pile[i - ncols];
            a->pile_len[i - ncols] = (uint8_t)n;
            for (Py_ssize_t j = 0; j < n; j++)
                if (pile[j] != pile[0] + 4 * j || pile[0] >= 4) {
                    free(a);
                    PyErr_SetString(PyExc_ValueError, "a foundation pile must run from its Ace up in one suit");
                    return NULL;
                }
        }
        total += (int)n;
    }
    Py_ssize_t ns = read_cards(stock_obj, a->stock, TD_CARDS, "stock");
    if (ns < 0) {
        free(a);
        return NULL;
    }
    a->nstock = (int)ns;
    total += (int)ns;
    if (total != a->total || total > TD_CARDS || hidden > 62) {
        free(a);
        PyErr_SetString(PyExc_ValueError, hidden > 62 ? "at most 62 face-down cards"
                                                      : "the position must hold all the deck's cards (at most 104)");
        return NULL;
    }
    search_result_t res;
    run_released(two_deck_entry, a, &a->stop, &a->stop_arg, stop, &res);
    free(a);
    return result_value(&res);
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))search, METH_VARARGS | METH_KEYWORDS,
     "search(columns, down, heights, fits, build, kings_only, foundation_return, node_limit, time_limit, "
     "memory_limit, stop=None, stock=None, waste=None, threads=1, switch_at=2000000, merge=True, sleep=True, "
     "links=True, verify_links=False, safe=SAFE_TABLE, interleave=False, blocks=True, relax=False) -> (status, line, nodes, "
     "peak_table, seconds, reason)"},
    {"safe_cards", safe_cards, METH_VARARGS,
     "safe_cards(safe, heights) -> int: the cards rule 1 calls safe at these foundation heights, as a bit mask"},
    {"search_two_deck", (PyCFunction)(void (*)(void))search_two_deck, METH_VARARGS | METH_KEYWORDS,
     "search_two_deck(columns, down, piles, stock, fits, safe, kings_only, foundation_return, total, node_limit, "
     "time_limit, memory_limit, stop=None, best_first=0, shorten=False) -> (status, line, nodes, peak_table, "
     "seconds, reason): the depth-first search of a two-deck position (best_first > 0: the best-first search "
     "storing at most that many positions; shorten: take the shortcuts along a winning line)"},
    {"relaxed_lost", (PyCFunction)(void (*)(void))relaxed_lost_py, METH_VARARGS | METH_KEYWORDS,
     "relaxed_lost(columns, down, heights, fits, kings_only, foundation_return) -> bool: rule 4 (one deck, no "
     "stock) proves this position lost, as the search asks it at every class it enters"},
    {"release_memory", release_memory, METH_NOARGS,
     "release_memory() -> None: unmap the table memory kept from the last search for the next one"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                                    "Compiled depth-first search for one-deck variants (yukon.solver.search).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    /* how the interleave takes turns in this build (interleave.h): "ucontext" or "threads" */
    if (m && PyModule_AddStringConstant(m, "INTERLEAVE_TURNS", INTERLEAVE_TURNS) < 0) Py_CLEAR(m);
    return m;
}
