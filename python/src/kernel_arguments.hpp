// Arguments of kernel calls from Python, with PyOpenCL's conventions: arrays and buffers for
// pointers, numbers converted to the declared type (and refused out of its range), sizes and
// ranges; what a launch may write. Used by the raw kernels (kernel_programs.cpp) and the
// generators (kernel_generators.cpp).
#pragma once

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "common.hpp"

namespace weftpy {

inline PyArray* as_array(nb::handle h) { return nb::isinstance<PyArray>(h) ? &nb::cast<PyArray&>(h) : nullptr; }

std::string arg_name(std::size_t i, const std::string& name);

/// The buffer of an array argument: a whole contiguous array from its first element. who()
/// names the argument; it is called only to word an error (nothing is built per call).
template <class Who>
weft::Buffer array_buffer(PyArray& p, const Who& who) {
  const weft::Array& a = p.array();
  if (a.offset() != 0 || !a.is_contiguous()) {
    throw weft::InvalidArgument(who() + ": " + a.describe() +
                                " is a view that does not start at its buffer's first element or is not "
                                "contiguous; pass a.copy()");
  }
  return a.buffer();
}

/// A size: an integer (or anything with __index__), non-negative and below 2**64.
std::size_t size_of_index(PyObject* o, const char* what);
/// A global or local size or offset: None, an integer, or a sequence of 1 to 3 of them.
weft::NDRange ndrange(nb::handle h, const char* what);
std::vector<weft::Event> events_of(nb::handle wait_for);

/// Converts a Python number to dtype t into out (at most 8 bytes); TypeError naming who.
void number_to(weft::DType t, nb::handle obj, void* out, const std::string& who);

/// What recorded launches may write: a graph's launch evaluates the lazy arrays reading it
/// first, as a kernel call does.
inline const weft::Buffer& buffer_of(const weft::Array& a) { return a.buffer(); }
inline const weft::Buffer& buffer_of(const weft::Buffer& b) { return b; }

struct Written {
  std::vector<weft::Array> arrays;
  std::vector<weft::Buffer> buffers;

  /// Adds other's, each allocation once (before_write of one view covers all of its views),
  /// so a graph of many launches over the same arrays checks each once per launch.
  void merge(Written&& other) {
    // (An array's before_write also marks its copies on other devices stale: a raw buffer
    // seen first does not stand in for it.)
    const auto in = [](const auto& list, const weft::Buffer& b) {
      for (const auto& x : list) {
        if (buffer_of(x).impl() == b.impl()) return true;
      }
      return false;
    };
    for (auto& a : other.arrays) {
      if (!in(arrays, a.buffer())) arrays.push_back(std::move(a));
    }
    for (auto& b : other.buffers) {
      if (!in(arrays, b) && !in(buffers, b)) buffers.push_back(std::move(b));
    }
  }
};

struct PyKernel {
  weft::Kernel kernel;
  std::vector<weft::KernelArgInfo> info;
  std::vector<bool> writes;  // a non-const __global pointer
  // The array or buffer each written parameter holds now (set_args, or the last call): a
  // launch with the arguments already set (enqueue_nd_range_kernel) evaluates the lazy arrays
  // reading them first, as a call does.
  std::vector<nb::object> held;

  explicit PyKernel(weft::Kernel k) : kernel(std::move(k)) {
    for (std::size_t i = 0; i < kernel.num_args(); ++i) {
      info.push_back(kernel.arg_info(i));
      const auto& a = info.back();
      writes.push_back(a.is_pointer && a.space == weft::AddressSpace::global &&
                       a.type_name.find("const") == std::string::npos);
    }
    held.resize(info.size());
  }

  /// Binds args[first..] to the parameters; returns whether any was a weft.Array or Buffer.
  /// written, when given, collects what the kernel may write (a graph does this again at
  /// each launch).
  bool bind(nb::handle args_obj, std::size_t first, Written* written = nullptr);
  /// Binds one argument (Kernel.set_arg); returns whether it was a weft.Array or Buffer.
  bool bind_one(std::size_t i, nb::handle a, Written* written = nullptr);
  /// Before a launch with the arguments already set: what the held arguments' lazy readers need.
  void before_launch() const {
    for (std::size_t i = 0; i < held.size(); ++i) {
      if (!writes[i] || !held[i].is_valid()) continue;
      if (PyArray* arr = as_array(held[i])) before_write(arr->array());
      else if (nb::isinstance<weft::Buffer>(held[i])) before_write(nb::cast<const weft::Buffer&>(held[i]));
    }
  }
};

}  // namespace weftpy
