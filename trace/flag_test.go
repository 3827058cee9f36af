package trace

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// flagPre allocates a on GCD 0 and b on GCD 1 (lines 1, 2) and launches a
// delay kernel on GCD 0, stream 1, waiting on flag "go" (line 3).
const flagPre = `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" +
	`{"op":"malloc","buf":"b","gcd":1,"bytes":16}` + "\n" +
	`{"op":"kernel","name":"delay","gcd":0,"stream":1,"grid":1,"workgroup":1,"wait_flag":"go"}` + "\n"

func TestFlags(t *testing.T) {
	good := flagPre +
		`{"op":"memcpy_peer_async","src":"a","dst":"b","bytes":16,"stream":1}` + "\n" +
		`{"op":"kernel","name":"delay","gcd":1,"stream":2,"grid":1,"workgroup":1,"wait_flag":"go"}` + "\n" +
		`{"op":"flag_set","flag":"go"}` + "\n" +
		`{"op":"stream_sync","stream":1}`
	ops := checked(t, good)
	if ops[2].WaitFlag != "go" || ops[2].Access != nil || ops[5].Op != FlagSet || ops[5].Flag != "go" {
		t.Errorf("parsed %+v and %+v", ops[2], ops[5])
	}
	var b bytes.Buffer
	if err := Write(&b, ops); err != nil {
		t.Fatal(err)
	}
	w := b.String()
	back, err := Parse(strings.NewReader(w), "w")
	if err != nil || !reflect.DeepEqual(stripLines(back), stripLines(ops)) {
		t.Fatalf("round trip: %v\n%s", err, w)
	}
	if !strings.Contains(w, `{"op":"flag_set","flag":"go"}`) || !strings.Contains(w, `"wait_flag":"go"}`) {
		t.Errorf("written:\n%s", w)
	}
}

func TestFlagErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// parsing: names exact, no empty flag, fields in their place
		{`{"op":"flag_set","flags":"go"}`, "t.jsonl:4: flags: unknown field"},
		{`{"op":"flag_set","flag":"go","stream":1}`, "t.jsonl:4: stream: not used by flag_set"},
		{`{"op":"flag_set","flag":null}`, "t.jsonl:4: flag: must not be null"},
		{`{"op":"flag_set","flag":1}`, "t.jsonl:4: flag: must be a string, got number"},
		{`{"op":"kernel","name":"k","gcd":0,"grid":1,"workgroup":1,"wait_flag":""}`, `t.jsonl:4: wait_flag: must be a flag name, got ""`},
		{`{"op":"kernel","name":"k","gcd":0,"grid":1,"workgroup":1,"flag":"go"}`, "t.jsonl:4: flag: not used by kernel"},
		{`{"op":"event_record","event":"e","wait_flag":"go"}`, "t.jsonl:4: wait_flag: not used by event_record"},
		// checking
		{`{"op":"flag_set"}`, "t.jsonl:4: flag: required by flag_set"},
		{`{"op":"flag_set","flag":"stop"}`, `t.jsonl:4: flag: no kernel on an earlier line waits on flag "stop" (wait_flag), nor any flag_wait`},
		{`{"op":"flag_set","flag":"go"}` + "\n" + `{"op":"flag_set","flag":"go"}`, `t.jsonl:5: flag: flag "go" already set on line 4`},
		{`{"op":"flag_set","flag":"go"}` + "\n" + `{"op":"kernel","name":"delay","gcd":0,"grid":1,"workgroup":1,"wait_flag":"go"}`,
			`t.jsonl:5: wait_flag: flag "go" already set on line 4, so the kernel would not wait (a flag is set once: use a new name)`},
		{`{"op":"event_record","event":"e","stream":1}`, `t.jsonl:3: wait_flag: flag "go" is never set (no flag_set after this line): the kernel would wait forever`},
		{`{"op":"stream_sync","stream":2}` + "\n" + `{"op":"flag_set","flag":"go"}`,
			`t.jsonl:4: op: stream_sync blocks the host while the kernel on line 3 waits for flag "go", which only the host sets (flag_set): the run would hang`},
		{`{"op":"memcpy_peer","src":"a","dst":"b","bytes":16}` + "\n" + `{"op":"flag_set","flag":"go"}`,
			`t.jsonl:4: op: memcpy_peer blocks the host while the kernel on line 3 waits for flag "go", which only the host sets (flag_set): the run would hang`},
		{`{"op":"kernel","name":"k","gcd":0,"grid":1,"workgroup":1}`, "t.jsonl:4: access: must have at least one entry"},
		{`{"op":"kernel","name":"k","gcd":0,"grid":1,"workgroup":1,"wait_flag":"f2","access":[{"buf":"x","mode":"read","bytes":4}]}`,
			`t.jsonl:4: access[0].buf: unknown buffer "x"`},
	} {
		checkFails(t, flagPre+c.in, c.want)
	}
}

// A host call that does not wait for device work may come between a
// delay kernel and its flag_set; after the flag_set the host may block.
func TestFlagAllowsNonBlockingCalls(t *testing.T) {
	in := flagPre +
		`{"op":"host_access","numa":0,"access":[{"buf":"a","mode":"write","bytes":4}]}` + "\n" +
		`{"op":"event_record","event":"e","stream":1}` + "\n" +
		`{"op":"stream_wait","event":"e","stream":2}` + "\n" +
		`{"op":"flag_set","flag":"go"}` + "\n" +
		`{"op":"event_sync","event":"e"}` + "\n" +
		`{"op":"device_sync"}`
	checked(t, in)
	gen := []Op{{Op: FlagSet, Flag: "f", NUMA: ip(0)}}
	if err := Check(gen, testNode, "gen"); err == nil || err.Error() != "gen:1: numa: not used by flag_set" {
		t.Errorf("generated misplaced field: %v", err)
	}
}
