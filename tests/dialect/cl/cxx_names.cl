// Names that OpenCL C lets a kernel take and that the C++ the host and CUDA backends compile
// reserves: C++ keywords, the alternative operator spellings, identifiers special in some
// places, names C and C++ library headers define as macros, CUDA's built-in variables.
// Every device must build and run these with the same results (tests/dialect/test_names.cpp).
#define virtual 3
#define SQUARE(delete) ((delete) * (delete))
#define explicit(export) (export + virtual)
#ifdef virtual
#define mutable 40
#endif

typedef struct {
  int delete;
  int friend;
} namespace;

struct class { int public; int protected; };

__constant int constexpr = 7;

int template(int typename, int class) { return typename * 10 + class; }

int operator(namespace n) { return n.delete - n.friend; }

// A helper calling a work-item function: the CUDA translation then copies the launch into
// shared memory in each kernel's prologue, code that reads threadIdx.
int using(int throw) { return throw + (int)get_global_id(0) * 0; }

// C++ keywords, as a kernel's name, its parameters, locals, functions, types and macros.
__kernel void new(__global int* this, int and, int or)
{
    const int i = get_global_id(0);
    if (i != 0) return;
    namespace n;
    n.delete = 9;
    n.friend = 4;
    struct class c;
    c.public = 2;
    c.protected = 5;
    int not = and + or;
    int xor = not ^ 1, bitand = 6 & 3, bitor = 1 | 8, compl = 5, and_eq = 2, or_eq = 4;
    int xor_eq = 7, not_eq = 9;
    int try = 1, catch = 2, asm = 3, typeid = 4, noexcept = 5, nullptr = 6, decltype = 7;
    int alignas = 8, alignof = 9, char8_t = 10, char16_t = 11, char32_t = 12, wchar_t = 13;
    int static_assert = 14, thread_local = 15, consteval = 16, constinit = 17, concept = 18;
    int requires = 19, co_await = 20, co_yield = 21, co_return = 22, dynamic_cast = 23;
    int static_cast = 24, reinterpret_cast = 25, const_cast = 26, final = 27, override = 28;
    int import = 29, module = 30, typeof = 31;
    this[0] = not;
    this[1] = xor + bitand + bitor + compl + and_eq + or_eq + xor_eq + not_eq;
    this[2] = template(c.public, c.protected);
    this[3] = operator(n);
    this[4] = SQUARE(virtual) + explicit(1) + mutable + constexpr;
    this[5] = try + catch + asm + typeid + noexcept + nullptr + decltype + alignas + alignof +
              char8_t + char16_t + char32_t + wchar_t + static_assert + thread_local + consteval +
              constinit + concept + requires + co_await + co_yield + co_return + dynamic_cast +
              static_cast + reinterpret_cast + const_cast + final + override + import + module +
              typeof;
    this[6] = using(100);
}

// Names C and C++ headers define as macros or globals, and CUDA's built-in variables.
__kernel void template_kernel(__global int* stdin, int threadIdx, int blockIdx)
{
    int offsetof = 1, alloca = 2, errno = 3, SIZE_MAX = 4, PATH_MAX = 5, EOF = 6, assert = 7;
    int stdout = 8, stderr = 9, BUFSIZ = 10, RAND_MAX = 11, INT8_MAX = 12, vec = 13, std = 14;
    int blockDim = 15, gridDim = 16, warpSize = 17, SharedWorkItem = 18, FILE = 19;
    stdin[get_global_id(0)] = offsetof + alloca + errno + SIZE_MAX + PATH_MAX + EOF + assert +
                              stdout + stderr + BUFSIZ + RAND_MAX + INT8_MAX + vec + std +
                              blockDim + gridDim + warpSize + SharedWorkItem + FILE +
                              threadIdx * blockIdx + (int)get_global_id(0) + using(0);
}
