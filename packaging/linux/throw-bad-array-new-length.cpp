// Linked into the release binary only when it is linked against a GCC 10 libstdc++.a
// (scripts/build-release --sysroot, Debian 11's): the toolchain's Swift runtime
// (libswiftCore.a, libswift_Concurrency.a) was compiled with GCC 11's headers, whose
// std::unordered_map code calls this helper, which libstdc++ exports only from GCC 11 on
// (GLIBCXX_3.4.29). It is libstdc++'s own definition (src/c++11/functexcept.cc): throw the
// exception that `new T[n]` with too large an n throws.
#include <new>

namespace std {
[[noreturn]] void __throw_bad_array_new_length() { throw bad_array_new_length(); }
}  // namespace std
