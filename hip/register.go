package hip

// Registered host memory (hipHostRegister of a malloc_pageable buffer,
// trace/register.go). ROCclr locks the user pages into the fine-grained
// system pool (hsa_amd_memory_lock_to_pool) and maps them for every GPU,
// so while registered the buffer is pinned host memory: copies go straight
// to SDMA, asynchronously, and kernels reach it in place (shared docs
// host-memory.md section 2).
//
// The lock is the same KFD userptr registration a pageable copy makes for
// each chunk, so host_register blocks the host for the cost of one pin of
// the whole buffer: runtime.pin_ns + runtime.pin_page_ns per 4 KiB page
// (pinNs, pageable.go). Those keys price a lock and its unlock together,
// so host_unregister adds nothing but its wait: ROCclr synchronizes the
// device (SyncAllStreams) before it unlocks, and the buffer is pageable
// again once the device is idle.

// Registered says whether buf is registered now: allocated by
// malloc_pageable and host_register'd, not host_unregister'd yet. Its
// pages are then mapped for the GPUs page by page (4 KiB).
func (r *Runtime) Registered(buf string) bool { return r.registered[buf] }

// pageableNow says whether buf is pageable now: a malloc_pageable buffer
// that is not registered.
func (r *Runtime) pageableNow(buf string) bool {
	return r.bufs[buf].Pageable && !r.registered[buf]
}
