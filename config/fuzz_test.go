package config

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// Nothing may panic on bad input, and every error is one line.
func checkNoPanic(t *testing.T, text string, sets []string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic on sets %q, text:\n%s\n%v", sets, text, r)
		}
	}()
	n, err := Parse("fuzz.toml", []byte(text), sets)
	if err == nil {
		// Whatever loads must round-trip.
		var buf bytes.Buffer
		if err := n.WriteTOML(&buf); err != nil {
			t.Fatal(err)
		}
		m, err := Parse("again.toml", buf.Bytes(), nil)
		if err != nil {
			t.Fatalf("written config does not load: %v\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(n, m) {
			t.Fatalf("round trip changed the node:\n%+v\n%+v", n, m)
		}
		if err := n.WriteJSON(io.Discard); err != nil {
			t.Fatal(err)
		}
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is %T", err, err)
	}
	if strings.ContainsAny(err.Error(), "\r\n") {
		t.Fatalf("error not one line: %q", err.Error())
	}
}

var nastySets = []string{
	"", "=", "==", ".", "[", "]", "a[", "xgmi.bundle[", "xgmi.bundle[0-", "xgmi.bundle[-1].lanes=1",
	"xgmi.bundle[0-1]", "xgmi.bundle[0-1]=", "xgmi.bundle[0-1]={lanes=2}", "xgmi.bundle[0-3]={lanes=2}",
	"xgmi.bundle[0-3]={gcds=[0,3]}", "xgmi.bundle=[]", "xgmi.bundle=[{gcds=[0,1],lanes=1}]",
	"xgmi.bundle=[1,2]", "xgmi.bundle[0]=5", "xgmi.bundle[0].gcds=[1]", "xgmi.bundle[0].gcds[5]=1",
	"xgmi.bundle[0].gcds[1]=9", "xgmi=5", "xgmi={}", "gcd.count=99999999999999999999",
	"gcd.count=-9223372036854775808", "gcd.clock_ghz=nan", "gcd.clock_ghz=-inf", "name=\"\\u0000\"",
	"host.gcd_numa=[]", "host.gcd_numa[0]=[1]", "routing.kernel_ties='''x'''", "routing.sdma=\"\"\"\n\"\"\"",
	"gcd.count=1", "xgmi.bundle[1-1].gcds=[0,0]", "host.gcd_numa=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65]",
	"gcd.count=64", "xgmi.bundle[0-63].lanes=1", "dram={efficiency=2}", "t=1979-05-27", "name=1979-05-27T00:00:00Z",
	"name=a\xffb", "name=a\tb", "name=\"\\u0007\"",
}

func TestNoPanicTruncated(t *testing.T) {
	text := readFile(t, shippedPath(t, "frontier-node"))
	for i := 0; i <= len(text); i += 7 {
		checkNoPanic(t, text[:i], nil)
		checkNoPanic(t, text[i:], nil)
	}
	checkNoPanic(t, "", nil)
	checkNoPanic(t, "\x00\xff\xfe", nil)
	checkNoPanic(t, "[[[[", nil)
	checkNoPanic(t, "a = [[[[", nil)
	checkNoPanic(t, "a = {{{", nil)
	checkNoPanic(t, "\"\"\"", nil)
}

func TestNoPanicSets(t *testing.T) {
	text := readFile(t, shippedPath(t, "frontier-node"))
	for _, s := range nastySets {
		checkNoPanic(t, text, []string{s})
		checkNoPanic(t, mini, []string{s, s})
	}
}

func FuzzParse(f *testing.F) {
	f.Add(mini, "xgmi.bundle[0-3].lanes=1")
	f.Add("name = 1\n[[xgmi.bundle]]\ngcds=[0]\n", "gcd.count=2")
	for _, s := range nastySets {
		f.Add(mini, s)
	}
	f.Fuzz(func(t *testing.T, text, set string) {
		checkNoPanic(t, text, []string{set})
	})
}

// FuzzSet fuzzes -set overrides of the shipped Frontier config: any two
// overrides either load (and round-trip) or fail with one line, never a
// panic; seeded with every key at its edges.
func FuzzSet(f *testing.F) {
	for _, s := range nastySets {
		f.Add(s, "")
	}
	ints, floats := numericKeys(reflect.TypeFor[Node](), "")
	for _, k := range ints {
		f.Add(k+"=1", k+"=1073741824")
	}
	for _, k := range floats {
		f.Add(k+"=0", k+"=1e9")
	}
	f.Add("xgmi.bundle[0-3].lanes=1", "xgmi.bundle[0-1].lanes=0")
	f.Add("host.gcd_numa=[0,0,0,0,0,0,0,0]", "host.numa_domains=1")
	text := readFile(f, shippedPath(f, "frontier-node"))
	f.Fuzz(func(t *testing.T, a, b string) {
		checkNoPanic(t, text, []string{a, b})
	})
}
