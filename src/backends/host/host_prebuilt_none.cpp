// An empty pack of prebuilt host kernels, for the program that makes the pack
// (tools/host_prebuilt_gen.cpp): it runs the array library with nothing prebuilt.
asm(".pushsection .rodata.weft_host_prebuilt,\"a\",@progbits\n"
    ".globl weft_host_prebuilt_begin\n"
    ".hidden weft_host_prebuilt_begin\n"
    "weft_host_prebuilt_begin:\n"
    ".globl weft_host_prebuilt_end\n"
    ".hidden weft_host_prebuilt_end\n"
    "weft_host_prebuilt_end:\n"
    ".byte 0\n"
    ".popsection\n");
