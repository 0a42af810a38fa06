/* common/simt/cuda/cooperative_groups/memcpy_async.h: not on the SIMT emulator. */
#error "SIMT emulator: cooperative_groups::memcpy_async / cg::wait (asynchronous copies to shared memory) are not supported yet"
