//go:build unix

package trace

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// A trace through a pipe (a FIFO here) is copied into a temporary file
// that streams as the file would, its errors naming the pipe; a regular
// file is read where it is.
func TestSpoolPipe(t *testing.T) {
	dir := t.TempDir()
	text := "{\"op\":\"malloc\",\"buf\":\"a\",\"gcd\":0,\"bytes\":4096}\n{\"op\":\"kernel\",\"name\":\"k\",\"gcd\":0,\"grid\":64,\"workgroup\":64,\"duration_ns\":10}\n"
	file := filepath.Join(dir, "t.jsonl")
	os.WriteFile(file, []byte(text), 0o644)
	if read, err := Spool(file, dir); err != nil || read != file {
		t.Errorf("a regular file: read %q, %v; want it where it is", read, err)
	}
	pipe := func(text string) string {
		p := filepath.Join(dir, "fifo")
		os.Remove(p)
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skip("no FIFO:", err)
		}
		go func() {
			w, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err == nil {
				w.WriteString(text)
				w.Close()
			}
		}()
		return p
	}
	p := pipe(text)
	read, err := Spool(p, dir)
	if err != nil || read == p {
		t.Fatalf("a pipe: read %q, %v; want a copy", read, err)
	}
	defer os.Remove(read)
	want, err := ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenStreamAs(read, p, testNode)
	if err != nil || s == nil {
		t.Fatalf("the copy does not stream: %v", err)
	}
	got, err := s.Next()
	if b, _ := os.ReadFile(read); string(b) != text || err != nil {
		t.Fatalf("the copy holds %q (%v), want %q", b, err, text)
	}
	s.Close()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("streamed from the copy: %v, want %v", got, want)
	}
	p = pipe(text + "{\"op\":\n") // not JSON
	if read, err = Spool(p, dir); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(read)
	if _, err := ReadFileAs(read, p); err == nil || !strings.HasPrefix(err.Error(), p+":3") {
		t.Errorf("error %v, want it at %s:3", err, p)
	}
}
