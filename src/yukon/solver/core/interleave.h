/* How the interleave (two searches taking turns on one core, docs/solver-design.md "Two searches on one
 * core") switches between them, chosen at compile time (docs/solver-design.md, "Portability"):
 *
 *   ucontext  swapcontext to the second search's own stack: no second OS thread at all;
 *   threads   where the C library has no usable ucontext (removed from POSIX 2008, deprecated on macOS,
 *             whose header refuses to compile without _XOPEN_SOURCE, absent from Windows and musl), a
 *             second thread and a baton: only the holder runs, so the searches still never run at once
 *             and take the same turns, node for node.
 *
 * YUKON_NO_UCONTEXT picks the second: set here on macOS and Windows, by setup.py where a test program
 * calling swapcontext does not link, and by hand (-DYUKON_NO_UCONTEXT) to test it. */
#ifndef YUKON_INTERLEAVE_H
#define YUKON_INTERLEAVE_H

#if !defined(YUKON_NO_UCONTEXT) && (defined(__APPLE__) || defined(_WIN32))
#define YUKON_NO_UCONTEXT 1
#endif

#ifdef YUKON_NO_UCONTEXT
#define INTERLEAVE_TURNS "threads"
#else
#define INTERLEAVE_TURNS "ucontext"
#endif

#endif
