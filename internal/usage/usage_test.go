package usage

import (
	"errors"
	"strings"
	"testing"
)

// A list splits at its commas (or as split says), trims its items, and
// refuses an empty item or a repeat as bad input naming the flag.
func TestList(t *testing.T) {
	got, err := List("-sizes", " 8, 64 ,512")
	if err != nil || strings.Join(got, "|") != "8|64|512" {
		t.Errorf("-sizes 8, 64 ,512: %q, %v", got, err)
	}
	got, err = List("-set", "[1,2],[3]", func(string) []string { return []string{"[1,2]", "[3]"} })
	if err != nil || len(got) != 2 {
		t.Errorf("split: %q, %v", got, err)
	}
	for v, want := range map[string]string{"8,,64": "-sizes: empty item in", "8,64,8": "-sizes: 8 given twice"} {
		_, err := List("-sizes", v)
		var ue *Error
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) {
			t.Errorf("-sizes %s: %v, want bad input %q", v, err, want)
		}
	}
}
