// weft: one kernel source and one array API for the CPU, OpenCL devices and CUDA GPUs.
// Including this header brings in the whole public C++ API.
#pragma once

#include "weft/arg_spec.hpp"
#include "weft/array.hpp"
#include "weft/buffer.hpp"
#include "weft/config.hpp"
#include "weft/device.hpp"
#include "weft/dtype.hpp"
#include "weft/elementwise.hpp"
#include "weft/error.hpp"
#include "weft/event.hpp"
#include "weft/future.hpp"
#include "weft/ndrange.hpp"
#include "weft/pinned_memory.hpp"
#include "weft/polygon.hpp"
#include "weft/program.hpp"
#include "weft/queue.hpp"
#include "weft/reduction.hpp"
#include "weft/scan.hpp"
#include "weft/selector.hpp"
#include "weft/shape.hpp"
#include "weft/version.hpp"
