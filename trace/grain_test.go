package trace

import (
	"strings"
	"testing"
)

const (
	fineDev  = `{"op":"malloc","buf":"d","gcd":0,"bytes":4096,"fine":true}` + "\n"
	ncHost   = `{"op":"host_malloc","buf":"h","numa":0,"bytes":4096,"noncoherent":true}` + "\n"
	managedM = `{"op":"malloc_managed","buf":"m","numa":0,"bytes":4096}` + "\n"
	coarseM  = `{"op":"mem_advise","buf":"m","advice":"set_coarse_grain"}` + "\n"
)

// Device memory is coarse unless fine; pinned host memory is fine unless
// noncoherent; managed memory takes the grain advices. Write keeps them.
func TestGrain(t *testing.T) {
	in := fineDev + `{"op":"malloc","buf":"c","gcd":1,"bytes":64}` + "\n" + ncHost +
		`{"op":"host_malloc","buf":"f","numa":1,"bytes":64}` + "\n" + managedM + coarseM +
		`{"op":"mem_advise","buf":"m","advice":"unset_coarse_grain"}`
	ops := checked(t, in)
	bufs := Buffers(ops)
	for name, coarse := range map[string]bool{"d": false, "c": true, "h": true, "f": false, "m": false} {
		if bufs[name].Coarse != coarse {
			t.Errorf("%s: Coarse %v, want %v", name, bufs[name].Coarse, coarse)
		}
	}
	var w strings.Builder
	if err := Write(&w, ops); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{fineDev, ncHost, coarseM} {
		if !strings.Contains(w.String(), line) {
			t.Errorf("written without %q:\n%s", line, w.String())
		}
	}
}

func TestGrainErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"op":"host_malloc","buf":"h","numa":0,"bytes":64,"fine":true}`, `t.jsonl:1: fine: not used by host_malloc`},
		{`{"op":"malloc","buf":"d","gcd":0,"bytes":64,"noncoherent":true}`, `t.jsonl:1: noncoherent: not used by malloc`},
		{`{"op":"malloc_managed","buf":"m","numa":0,"bytes":64,"fine":true}`, `t.jsonl:1: fine: not used by malloc_managed`},
		{`{"op":"malloc","buf":"d","gcd":0,"bytes":64,"fine":1}`, `t.jsonl:1: fine: must be true or false, got number`},
		{`{"op":"mem_advise","advice":"set_coarse_grain"}`, `t.jsonl:1: buf: required by mem_advise`},
		{`{"op":"mem_advise","buf":"x","advice":"set_coarse_grain"}`, `t.jsonl:1: buf: unknown buffer "x"`},
		{fineDev + `{"op":"mem_advise","buf":"d","advice":"set_coarse_grain"}`,
			`t.jsonl:2: buf: "d" is not managed memory: mem_advise takes a malloc_managed buffer`},
		{managedM + `{"op":"mem_advise","buf":"m"}`,
			`t.jsonl:2: advice: required by mem_advise: "set_coarse_grain" or "unset_coarse_grain"`},
		{managedM + `{"op":"mem_advise","buf":"m","advice":"read_mostly"}`,
			`t.jsonl:2: advice: want "set_coarse_grain" or "unset_coarse_grain", got "read_mostly"`},
		{managedM + `{"op":"mem_advise","buf":"m","advice":"set_coarse_grain","stream":1}`,
			`t.jsonl:2: stream: not used by mem_advise`},
		{managedM + `{"op":"free","buf":"m"}` + "\n" + coarseM, `t.jsonl:3: buf: buffer "m" was freed on line 2`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}
