package hip

// HeldChunks is how many chunks of a streamed run's operations r holds.
func HeldChunks(r *Runtime) int {
	n := 0
	for _, c := range r.store.chunks {
		if c != nil {
			n++
		}
	}
	return n
}
