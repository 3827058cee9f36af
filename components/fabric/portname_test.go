package fabric

import "testing"

// Port names are checked once per shape: names that differ only in their
// indices (a cluster's nodes) share one, and a name Akita refuses is
// refused whatever was made before it, an index too large for an int too.
func TestNewPortChecksNamesByShape(t *testing.T) {
	if a, b := nameShape(nil, "Node[12].GCD[3].Queue0"), nameShape(nil, "Node[7].GCD[100].Queue12"); string(a) != string(b) {
		t.Errorf("shapes %q and %q differ", a, b)
	}
	NewPort(nil, 1, "Node[1].Port")
	NewPort(nil, 1, "Node[2].Po[3]")
	for _, bad := range []string{"Node[99999999999999999999].Port", "node[1].Port", "Node[1]..Port", "Node[1].Po_rt", "Node[1].Po[3"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewPort(%q) was not refused", bad)
				}
			}()
			NewPort(nil, 1, bad)
		}()
	}
}
