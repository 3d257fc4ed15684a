// What the shared library exports. libweft is built with hidden visibility: only what the
// public headers mark WEFT_API (classes, free functions, and the few detail:: functions that
// public templates call) is visible to programs that link it, so its internals can change
// without breaking anyone, and calls inside the library need no indirection.
#pragma once

#if defined(_WIN32)
#define WEFT_API
#else
#define WEFT_API __attribute__((visibility("default")))
#endif
