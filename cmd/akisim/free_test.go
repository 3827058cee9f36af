package main

import "testing"

// A trace that uses a buffer after freeing it is bad input: one line
// naming file, line and field, exit 2; the same trace without the late use
// runs.
func TestUseAfterFree(t *testing.T) {
	const good = `{"op":"malloc","buf":"d","gcd":0,"bytes":4096}
{"op":"host_malloc","buf":"h","numa":0,"bytes":4096}
{"op":"memcpy","src":"h","dst":"d","bytes":4096}
{"op":"free","buf":"d"}
`
	goodTrace(t, good)
	badTrace(t, good+`{"op":"memcpy","src":"d","dst":"h","bytes":4096}`+"\n", `:5: src: buffer "d" was freed on line 4`)
}
