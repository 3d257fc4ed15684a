# libweft_vqsort (src/backends/host/vqsort): Highway's vectorized quicksort for the host
# backend's sorts of keys alone, a plugin that libweft opens at run time from its own folder
# (without it the host sorts by its radix sort). Built when WEFT_VQSORT is ON, or AUTO (the
# default) and Highway's headers and libhwy_contrib are found (Debian/Ubuntu: libhwy-dev).
#   -DWEFT_VQSORT=OFF    never
set(WEFT_VQSORT AUTO CACHE STRING "Build libweft_vqsort, Highway's vqsort for the host's sorts: AUTO, ON or OFF")
set_property(CACHE WEFT_VQSORT PROPERTY STRINGS AUTO ON OFF)

set(weft_vqsort_enabled OFF)
if(NOT WEFT_VQSORT STREQUAL "OFF")
  find_path(WEFT_HWY_INCLUDE_DIR hwy/contrib/sort/vqsort.h)
  find_library(WEFT_HWY_CONTRIB_LIBRARY hwy_contrib)
  find_library(WEFT_HWY_LIBRARY hwy)
  if(NOT WEFT_HWY_INCLUDE_DIR OR NOT WEFT_HWY_CONTRIB_LIBRARY OR NOT WEFT_HWY_LIBRARY)
    if(WEFT_VQSORT STREQUAL "ON")
      message(FATAL_ERROR "WEFT_VQSORT=ON: Highway (hwy/contrib/sort/vqsort.h, libhwy_contrib, libhwy) was not found")
    endif()
    message(STATUS "weft: libweft_vqsort not built: Highway's vqsort was not found (libhwy-dev)")
  else()
    set(weft_vqsort_enabled ON)
  endif()
endif()

if(weft_vqsort_enabled)
  set(src ${CMAKE_CURRENT_SOURCE_DIR}/src/backends/host/vqsort)
  add_library(weft_vqsort MODULE ${src}/weft_vqsort.cpp)
  set_target_properties(weft_vqsort PROPERTIES
    PREFIX "lib" OUTPUT_NAME weft_vqsort SUFFIX ".so"
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
    UNITY_BUILD OFF)
  target_include_directories(weft_vqsort SYSTEM PRIVATE ${WEFT_HWY_INCLUDE_DIR})
  target_include_directories(weft_vqsort PRIVATE ${src})
  target_link_libraries(weft_vqsort PRIVATE ${WEFT_HWY_CONTRIB_LIBRARY} ${WEFT_HWY_LIBRARY})
  if(WEFT_WERROR)
    target_compile_options(weft_vqsort PRIVATE -Wall -Wextra -Werror)
  endif()
  message(STATUS "weft: libweft_vqsort will be built (Highway from ${WEFT_HWY_INCLUDE_DIR})")
endif()
