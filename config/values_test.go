package config

import (
	"regexp"
	"testing"
)

// TestValuesNameWhatASetChanges: a -set of one bundle's lanes changes that
// key's value and no other, so a comparison of two nodes finds exactly it.
func TestValuesNameWhatASetChanges(t *testing.T) {
	base, err := Load(shippedPath(t, "frontier-node.toml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	what, err := Load(shippedPath(t, "frontier-node.toml"), []string{"xgmi.bundle[0-1].lanes=1"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := base.Values()
	if err != nil {
		t.Fatal(err)
	}
	b, err := what.Values()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("%d values against %d", len(a), len(b))
	}
	var changed []KeyValue
	seen := map[string]bool{}
	for i := range a {
		if a[i].Key != b[i].Key {
			t.Fatalf("value %d: key %s against %s", i, a[i].Key, b[i].Key)
		}
		if seen[a[i].Key] {
			t.Fatalf("key %s listed twice", a[i].Key)
		}
		seen[a[i].Key] = true
		if a[i].Value != b[i].Value {
			changed = append(changed, b[i])
		}
	}
	if len(changed) != 1 || changed[0].Value != "1" || !bundleLanes.MatchString(changed[0].Key) {
		t.Fatalf("changed %v, want one xgmi.bundle[i].lanes = 1", changed)
	}
	if !seen["gcd.count"] || !seen["name"] {
		t.Errorf("gcd.count or name missing from the values")
	}
}

var bundleLanes = regexp.MustCompile(`^xgmi\.bundle\[\d+\]\.lanes$`)
