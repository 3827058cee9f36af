package config

import (
	"testing"
)

func TestLineIndex(t *testing.T) {
	text := `# comment [not.a.table]
name = "x"   # a comment with = and [brackets]
top.dotted = 1

[gcd]
count = 8
"quoted.key" = 2
'literal key' = 3
a . b = 4

[xgmi]
lane_bandwidth_gbps = 50
text = """
multi = line
[not.a.table]
"""
lit = '''
[[nor.this]]
'''
arr = [
  1,   # one
  [2, 3],
  "four,]",
]
inline = {x = 1, y.z = [5, {w = 6}]}

[[xgmi.bundle]]
gcds = [0, 1]
lanes = 4

[[xgmi.bundle]] # second
gcds = [2, 3]

[xgmi.bundle.extra]
deep = 1

  [[ xgmi.bundle ]]
lanes = 1
list = [{gcds = [0, 1], lanes = 4},
        {gcds = [2, 3],
         lanes = 2}]

[host]
gcd_numa = [3, 3, 1, 1,
            0, 0, 2, 2]
`
	ix := indexLines(text)
	want := map[string]int{
		"name":                         2,
		"top":                          3,
		"top.dotted":                   3,
		"gcd":                          5,
		"gcd.count":                    6,
		`gcd."quoted.key"`:             7,
		`gcd."literal key"`:            8,
		"gcd.a":                        9,
		"gcd.a.b":                      9,
		"xgmi":                         11,
		"xgmi.lane_bandwidth_gbps":     12,
		"xgmi.text":                    13,
		"xgmi.lit":                     17,
		"xgmi.arr":                     20,
		"xgmi.arr[0]":                  21,
		"xgmi.arr[1]":                  22,
		"xgmi.arr[1][1]":               22,
		"xgmi.arr[2]":                  23,
		"xgmi.inline":                  25,
		"xgmi.inline.y.z[1].w":         25,
		"xgmi.bundle":                  27,
		"xgmi.bundle[0]":               27,
		"xgmi.bundle[0].gcds":          28,
		"xgmi.bundle[0].gcds[1]":       28,
		"xgmi.bundle[0].lanes":         29,
		"xgmi.bundle[1]":               31,
		"xgmi.bundle[1].gcds":          32,
		"xgmi.bundle[1].extra":         34,
		"xgmi.bundle[1].extra.deep":    35,
		"xgmi.bundle[2]":               37,
		"xgmi.bundle[2].lanes":         38,
		"xgmi.bundle[2].list[0]":       39,
		"xgmi.bundle[2].list[0].lanes": 39,
		"xgmi.bundle[2].list[1]":       40,
		"xgmi.bundle[2].list[1].lanes": 41,
		"host.gcd_numa":                44,
		"host.gcd_numa[3]":             44,
		"host.gcd_numa[4]":             45,
		"host.gcd_numa[7]":             45,
	}
	for k, l := range want {
		if got := ix.lookup(k); got != l {
			t.Errorf("%s: line %d, want %d", k, got, l)
		}
	}
	for _, k := range []string{"not", "not.a", "nor", "multi", "xgmi.multi", "xgmi.bundle[3]"} {
		if ix.has(k) {
			t.Errorf("%s indexed at line %d, but it is no key", k, ix.key[k])
		}
	}
	// Fallbacks to the enclosing table.
	for k, l := range map[string]int{"xgmi.bundle[1].lanes": 31, "host.numa_domains": 43, "gcd.x.y": 5, "sim": 0, "": 0} {
		if got := ix.lookup(k); got != l {
			t.Errorf("lookup(%q) = %d, want %d", k, got, l)
		}
	}
}

func TestParentKey(t *testing.T) {
	for k, want := range map[string]string{
		"a.b[2].c":   "a.b[2]",
		"a.b[2]":     "a.b",
		"a.b":        "a",
		"a":          "",
		`a."b.c"`:    "a",
		`"b.c"`:      "",
		"a.b[2][3]":  "a.b[2]",
		`a."x\"y.z"`: "a",
	} {
		if got := parentKey(k); got != want {
			t.Errorf("parentKey(%q) = %q, want %q", k, got, want)
		}
	}
}
