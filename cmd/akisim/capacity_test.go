package main

import "testing"

// Pinning more host memory than a NUMA domain has (Frontier: 128 GiB per
// domain, host.numa_bytes) is bad input, whether by host_malloc or by
// registering malloc'd memory on top of it: file, line, field, exit 2.
func TestPinnedBeyondTheNode(t *testing.T) {
	noSimulation(t)
	badTrace(t, `{"op":"host_malloc","buf":"a","numa":2,"bytes":137438953472}`+"\n"+
		`{"op":"host_malloc","buf":"b","numa":2,"bytes":4096}`+"\n",
		`:2: bytes: 4096 bytes do not fit in NUMA domain 2's memory: 0 of 137438953472 bytes (host.numa_bytes) free`)
	badTrace(t, `{"op":"malloc_pageable","buf":"a","numa":2,"bytes":137438953472}`+"\n"+
		`{"op":"host_register","buf":"a"}`+"\n"+
		`{"op":"host_malloc","buf":"b","numa":2,"bytes":1}`+"\n",
		`:3: bytes: 1 bytes do not fit in NUMA domain 2's memory: 0 of 137438953472 bytes (host.numa_bytes) free`)
}
