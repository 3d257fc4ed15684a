// The pack of prebuilt host kernels (host_prebuilt.hpp), linked into the library as it is:
// WEFT_HOST_PREBUILT_PACK names the file the generator wrote at build time. Built without
// ccache (which cannot see a file .incbin reads).
asm(".pushsection .rodata.weft_host_prebuilt,\"a\",@progbits\n"
    ".balign 64\n"
    ".globl weft_host_prebuilt_begin\n"
    ".hidden weft_host_prebuilt_begin\n"
    "weft_host_prebuilt_begin:\n"
    ".incbin \"" WEFT_HOST_PREBUILT_PACK "\"\n"
    ".globl weft_host_prebuilt_end\n"
    ".hidden weft_host_prebuilt_end\n"
    "weft_host_prebuilt_end:\n"
    ".popsection\n");
