package config

import (
	"reflect"
	"strings"
	"testing"
)

// The bad-input campaign of issue 6: values that ran out of memory or hung
// now stop at loading, with one line naming the -set.
func TestLimitReproductions(t *testing.T) {
	text := readFile(t, shippedPath(t, "frontier-node"))
	checkSets(t, text, []setCase{
		{"sdma.queues_per_engine=1073741824", "-set sdma.queues_per_engine=1073741824: must be 1..64, got 1073741824"},
		{"sdma.xgmi_engines=1073741824", "-set sdma.xgmi_engines=1073741824: must be 1..16, got 1073741824"},
		{"sdma.host_engines=17", "-set sdma.host_engines=17: must be 1..16, got 17"},
		{"gcd.line_bytes=1073741824", "-set gcd.line_bytes=1073741824: must be 16..4096, got 1073741824"},
		{"gcd.line_bytes=96", "-set gcd.line_bytes=96: must be a power of two, got 96"},
		{"gcd.l2_bytes=1099511627776", "-set gcd.l2_bytes=1099511627776: must be 0..1073741824, got 1099511627776"},
		{"gcd.compute_units=1000000", "-set gcd.compute_units=1000000: must be 1..1024, got 1000000"},
		{"host.cores=1000000", "-set host.cores=1000000: must be 1..1024, got 1000000"},
		{"host.core_load_lines=0", "-set host.core_load_lines=0: must be 1..16777216, got 0"},
		{"gcd.hbm_latency_ns=1e12", "-set gcd.hbm_latency_ns=1e12: must be in [0, 1e+09], got 1e+12"},
		{"dram.latency_ns=nan", "-set dram.latency_ns=nan: must be in [0, 1e+09], got nan"},
		{"xgmi.lane_bandwidth_gbps=1e-300", "-set xgmi.lane_bandwidth_gbps=1e-300: must be in [0.001, 1e+06], got 1e-300"},
		{"sdma.clock_ghz=inf", "-set sdma.clock_ghz=inf: must be in [0.001, 100], got inf"},
		{"gcd.hbm_bytes=4611686018427387904", "-set gcd.hbm_bytes=4611686018427387904: must be 1048576..1125899906842624, got 4611686018427387904"},
		{"host.numa_bytes=0", "-set host.numa_bytes=0: must be 1048576..1125899906842624, got 0"},
		{"runtime.blit_workgroup_bytes=9223372036854775807", "-set runtime.blit_workgroup_bytes=9223372036854775807: must be 1..1073741824, got 9223372036854775807"},
		{"xgmi.packet_payload_bytes=1048576", "-set xgmi.packet_payload_bytes=1048576: must be 1..65536, got 1048576"},
		{"host_link.request_bytes=0", "-set host_link.request_bytes=0: must be 1..65536, got 0"},
	})
}

// numericKeys lists the dotted keys of every integer and float value of
// t (a struct type), slices left out.
func numericKeys(t reflect.Type, prefix string) (ints, floats []string) {
	for i := range t.NumField() {
		f := t.Field(i)
		key := prefix + strings.Split(f.Tag.Get("toml"), ",")[0]
		switch f.Type.Kind() {
		case reflect.Struct:
			in, fl := numericKeys(f.Type, key+".")
			ints, floats = append(ints, in...), append(floats, fl...)
		case reflect.Int, reflect.Int64:
			ints = append(ints, key)
		case reflect.Float64:
			floats = append(floats, key)
		}
	}
	return ints, floats
}

// Every numeric value of a node, set far above or below anything real, is
// an error: nothing is left to an unbounded default.
func TestEveryNumberHasARange(t *testing.T) {
	text := readFile(t, shippedPath(t, "frontier-node"))
	ints, floats := numericKeys(reflect.TypeFor[Node](), "")
	ints = append(ints, "xgmi.bundle[0].lanes", "xgmi.bundle[0].gcds[1]", "host.gcd_numa[0]")
	if len(ints) < 40 || len(floats) < 25 {
		t.Fatalf("found only %d integer and %d float keys", len(ints), len(floats))
	}
	try := func(key, value string) {
		set := key + "=" + value
		_, err := Parse("frontier-node.toml", []byte(text), []string{set})
		if err == nil {
			t.Errorf("-set %s accepted", set)
		}
	}
	for _, k := range ints {
		try(k, "4611686018427387904")
		try(k, "-4611686018427387904")
	}
	for _, k := range floats {
		for _, v := range []string{"1e300", "-1e300", "nan", "inf"} {
			try(k, v)
		}
	}
}
