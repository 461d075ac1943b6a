# ASan + UBSan build of everything (CI runs the whole suite this way too).
if(CLAWEXEC_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
  add_compile_definitions(CLAWEXEC_SANITIZED=1)
endif()
