# weft_embed(<name> NAMESPACE <ns> FILES <file>...)
# Turns each file into a std::string_view constant named after the file (prelude.hpp ->
# prelude_hpp) in namespace <ns>, compiled into a generated source listed in <name>_SOURCES.
# Kernel sources stay real files that are read, diffed and linted as code.
set(WEFT_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/WeftEmbedRun.cmake)
function(weft_embed name)
  cmake_parse_arguments(ARG "" "NAMESPACE" "FILES" ${ARGN})
  set(out_cpp ${CMAKE_CURRENT_BINARY_DIR}/embedded/${name}.cpp)
  set(out_hpp ${CMAKE_CURRENT_BINARY_DIR}/embedded/${name}.hpp)
  set(inputs)
  foreach(f ${ARG_FILES})
    list(APPEND inputs ${CMAKE_CURRENT_SOURCE_DIR}/${f})
  endforeach()
  add_custom_command(
    OUTPUT ${out_cpp} ${out_hpp}
    COMMAND ${CMAKE_COMMAND} -DOUT_CPP=${out_cpp} -DOUT_HPP=${out_hpp}
            -DNAMESPACE=${ARG_NAMESPACE} "-DINPUTS=${inputs}"
            -P ${WEFT_EMBED_SCRIPT}
    DEPENDS ${inputs} ${WEFT_EMBED_SCRIPT}
    COMMENT "Embedding kernel-language sources"
    VERBATIM)
  set(${name}_SOURCES ${out_cpp} PARENT_SCOPE)
endfunction()
