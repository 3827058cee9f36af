package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// slowParse is parseLine's slow path alone.
func slowParse(line []byte) (Op, []string, [][]string, *Error) {
	keys, accessKeys, perr := scanObject(line)
	if perr != nil {
		return Op{}, nil, nil, perr
	}
	var op Op
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&op); err != nil {
		return Op{}, nil, nil, jsonError(err)
	}
	return op, keys, accessKeys, nil
}

// agree checks that where the fast path decides, the slow one accepts the
// line and gives the same op and keys.
func agree(t *testing.T, line []byte) bool {
	op, keys, ak, ok := parseFast(line)
	if !ok {
		return false
	}
	sop, skeys, sak, err := slowParse(line)
	if err != nil {
		t.Fatalf("%s: the fast path took a line the slow one refuses: %v", line, err)
	}
	if !reflect.DeepEqual(op, sop) || !reflect.DeepEqual(keys, skeys) || !reflect.DeepEqual(ak, sak) {
		t.Fatalf("%s: fast %+v %v %v, slow %+v %v %v", line, op, keys, ak, sop, skeys, sak)
	}
	return true
}

// TestFastPathAgrees: every op line of the shipped traces goes the fast
// way, with what the slow way gives.
func TestFastPathAgrees(t *testing.T) {
	files, _ := filepath.Glob("../traces/*.jsonl")
	lines := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			l := bytes.TrimSpace(sc.Bytes())
			if len(l) == 0 || l[0] == '#' {
				continue
			}
			if !agree(t, l) {
				t.Errorf("%s: %s went the slow way", f, l)
			}
			lines++
		}
	}
	for _, l := range []string{
		`{"op":"kernel","name":"k \"q\"","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":64,"workgroups":[0,1]}]}`,
		` { "op" : "malloc" , "buf" : "a,}" , "gcd" : 1 , "bytes" : 4096 } `,
		`{"op":"rccl_comm_init","comm":"c","gcds":[0,1,2]}`,
	} {
		if !agree(t, []byte(l)) {
			t.Errorf("%s went the slow way", l)
		}
	}
	if lines < 20 {
		t.Errorf("only %d lines in the shipped traces", lines)
	}
	// These must go the slow way, which words their errors.
	for _, l := range []string{`{"op":"malloc","buf":null}`, `{"op":"malloc","op":"free"}`, `{"Op":"malloc"}`, `{"op":"malloc"} x`, `[1]`,
		`{"op":"malloc","bytes":1e9}`, `{"op":"kernel","access":[{"buf":"a","buf":"b"}]}`, `{"op":"kernel","access":[null]}`} {
		if _, _, _, ok := parseFast([]byte(l)); ok {
			t.Errorf("%s took the fast path", l)
		}
	}
}

// FuzzFastPath: whatever the fast path decides, the slow path agrees with.
func FuzzFastPath(f *testing.F) {
	f.Add([]byte(`{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":64}]}`))
	f.Add([]byte(`{"op":"malloc","buf":"a","gcd":1,"bytes":4096}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		agree(t, line)
	})
}
