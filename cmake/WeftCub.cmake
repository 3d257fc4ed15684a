# libweft_cub (src/backends/cuda/cub): CUB's radix sort for weft's CUDA backend, a plugin that
# libweft opens at run time from its own folder. Built by nvcc when WEFT_CUB is ON, or AUTO
# (the default) and nvcc with CUB's headers is found; AUTO leaves it out of sanitizer and
# fuzzing builds (nvcc would compile it unsanitized anyway, at a minute a build).
#   -DWEFT_CUB=OFF                    never
#   -DWEFT_CUB_ARCHITECTURES="90"     SASS for these (sm_90: H100/H200), PTX of the last
set(WEFT_CUB AUTO CACHE STRING "Build libweft_cub, CUB's sort for CUDA devices: AUTO, ON or OFF")
set_property(CACHE WEFT_CUB PROPERTY STRINGS AUTO ON OFF)
set(WEFT_CUB_ARCHITECTURES "90" CACHE STRING "SASS architectures of libweft_cub (PTX of the last is added)")

set(weft_cub_enabled OFF)
if(NOT WEFT_CUB STREQUAL "OFF")
  find_package(CUDAToolkit QUIET)
  set(weft_cub_problem "")
  if(NOT CUDAToolkit_NVCC_EXECUTABLE OR NOT EXISTS "${CUDAToolkit_NVCC_EXECUTABLE}")
    set(weft_cub_problem "nvcc (the CUDA toolkit) was not found")
  else()
    find_path(WEFT_CUB_INCLUDE_DIR cub/device/device_radix_sort.cuh
      PATHS ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES cccl . NO_DEFAULT_PATH)
    if(NOT WEFT_CUB_INCLUDE_DIR)
      set(weft_cub_problem "CUB's headers are not in the CUDA toolkit (${CUDAToolkit_INCLUDE_DIRS})")
    endif()
  endif()
  if(WEFT_CUB STREQUAL "ON" AND weft_cub_problem)
    message(FATAL_ERROR "WEFT_CUB=ON: ${weft_cub_problem}")
  elseif(WEFT_CUB STREQUAL "AUTO" AND (WEFT_SANITIZE OR WEFT_SANITIZE_THREAD OR WEFT_FUZZ))
    message(STATUS "weft: libweft_cub left out of this sanitizer/fuzzing build (WEFT_CUB=ON builds it)")
  elseif(weft_cub_problem)
    message(STATUS "weft: libweft_cub not built: ${weft_cub_problem}")
  else()
    set(weft_cub_enabled ON)
  endif()
endif()

if(weft_cub_enabled)
  set(src ${CMAKE_CURRENT_SOURCE_DIR}/src/backends/cuda/cub)
  set(lib ${CMAKE_CURRENT_BINARY_DIR}/libweft_cub.so)
  set(gencode "")
  foreach(arch IN LISTS WEFT_CUB_ARCHITECTURES)
    list(APPEND gencode -gencode arch=compute_${arch},code=sm_${arch})
    set(last ${arch})
  endforeach()
  list(APPEND gencode -gencode arch=compute_${last},code=compute_${last})
  # Each object through ccache where the build uses it (ccache caches nvcc's -c); three files
  # so that nvcc's minute spreads over the build's cores.
  set(launcher "")
  if(CMAKE_CXX_COMPILER_LAUNCHER)
    set(launcher ${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  set(objs "")
  foreach(part weft_cub weft_cub_float weft_cub_segmented)
    set(obj ${CMAKE_CURRENT_BINARY_DIR}/weft_cub/${part}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/weft_cub
      COMMAND ${launcher} ${CUDAToolkit_NVCC_EXECUTABLE} -c -std=c++17 -O3 -Xcompiler=-fPIC,-fvisibility=hidden
              -ccbin ${CMAKE_CXX_COMPILER} ${gencode} -DCCCL_DISABLE_NVTX -I${src}
              -I${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/cl ${src}/${part}.cu -o ${obj}
      DEPENDS ${src}/${part}.cu ${src}/weft_cub.h ${src}/weft_cub_detail.cuh ${src}/ordered_keys.cuh
              ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/cl/sort_keys.cl
      COMMENT "nvcc: ${part}.cu (libweft_cub, sm ${WEFT_CUB_ARCHITECTURES})"
      VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  # The CUDA runtime linked in statically (no libcudart to ship); only the table is exported.
  add_custom_command(OUTPUT ${lib}
    COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -shared -cudart static -ccbin ${CMAKE_CXX_COMPILER} ${gencode} ${objs}
            -Xlinker --version-script=${src}/weft_cub.map -o ${lib}
    DEPENDS ${objs} ${src}/weft_cub.map
    COMMENT "nvcc: linking libweft_cub.so"
    VERBATIM)
  add_custom_target(weft_cub ALL DEPENDS ${lib})
  set(WEFT_CUB_LIBRARY_FILE ${lib})
  message(STATUS "weft: libweft_cub will be built (CUB from ${WEFT_CUB_INCLUDE_DIR}, sm ${WEFT_CUB_ARCHITECTURES})")
endif()
