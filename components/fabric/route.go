package fabric

// Route is the sequence of hubs a packet visits. Hubs 0..n-1 are GCDs; the
// host's IO die is hub n.
type Route []int

// Hops is the number of links the route crosses.
func (r Route) Hops() int { return len(r) - 1 }

// Equal says whether two routes visit the same hubs.
func (r Route) Equal(o Route) bool {
	if len(r) != len(o) {
		return false
	}
	for i := range r {
		if r[i] != o[i] {
			return false
		}
	}
	return true
}
