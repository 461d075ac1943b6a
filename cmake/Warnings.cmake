# Warnings every target gets; CI builds with CLAWEXEC_WERROR=ON (the default).
add_compile_options(-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
                    -Wunused -Woverloaded-virtual -Wimplicit-fallthrough
                    -Wno-missing-field-initializers)
if(CLAWEXEC_WERROR)
  add_compile_options(-Werror)
endif()
