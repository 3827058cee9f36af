package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxLineBytes is the longest line Parse accepts. Real ops are a few hundred
// bytes at most; the cap keeps a corrupt or binary file from being read
// into memory whole.
const MaxLineBytes = 1 << 20

// Error is a problem found in a trace, located by file and line. Its text is
// always one line: "FILE:LINE: FIELD: MSG", where the FIELD part is left out
// when no single JSON field is at fault and the LINE part when Line is 0.
type Error struct {
	File  string // name given to Parse or Check ("" is printed as "trace")
	Line  int    // 1-based line; for generated ops, the op's 1-based position
	Field string // JSON field at fault, such as "bytes"; "" if none
	Msg   string // what is wrong, without the location or field
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File == "" {
		b.WriteString("trace")
	} else {
		b.WriteString(e.File)
	}
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return oneLine(b.String())
}

// oneLine replaces line breaks so an error always prints on one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// jsonFields holds the JSON names of Op's fields, read from its struct tags.
var jsonFields = func() map[string]bool {
	m := map[string]bool{}
	t := reflect.TypeFor[Op]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			m[name] = true
		}
	}
	return m
}()

// ReadFile parses the trace file at path; errors name the file as path.
func ReadFile(path string) ([]Op, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a JSON Lines trace: one JSON object (an Op) per line. Blank
// lines and lines whose first non-blank character is '#' are skipped. Each
// object is decoded strictly: field names must match exactly (case
// included), appear at most once and not be null; unknown fields, wrong
// types and anything after the object are errors. Each returned Op has Line
// set. Parse stops at the first problem and returns it as an *Error naming
// name and the line. Parse only decodes; see Check for consistency.
func Parse(r io.Reader, name string) ([]Op, error) {
	br := bufio.NewReader(r)
	var ops []Op
	for n := 1; ; n++ {
		line, err := readLine(br)
		if err != nil && err != io.EOF {
			if errors.Is(err, errLineTooLong) {
				return nil, &Error{File: name, Line: n, Msg: err.Error()}
			}
			return nil, &Error{File: name, Line: n, Msg: "read: " + err.Error()}
		}
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // UTF-8 BOM
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			op, perr := parseLine(line) // untrimmed, so columns are right
			if perr != nil {
				perr.File, perr.Line = name, n
				return nil, perr
			}
			op.Line = n
			ops = append(ops, op)
		}
		if err == io.EOF {
			return ops, nil
		}
	}
}

var errLineTooLong = fmt.Errorf("line longer than %d bytes", MaxLineBytes)

// readLine returns the next line without its line ending, or io.EOF with
// the last (possibly empty) line when the input ends.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLineBytes+2 { // +2 for "\r\n"
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		switch err {
		case nil:
			line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
			if len(line) > MaxLineBytes {
				return nil, errLineTooLong
			}
			return line, nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(line) > MaxLineBytes {
				return nil, errLineTooLong
			}
			return line, io.EOF
		default:
			return nil, err
		}
	}
}

// parseLine decodes one non-blank, non-comment line. The returned Error has
// no File or Line yet.
func parseLine(line []byte) (Op, *Error) {
	var op Op
	if !utf8.Valid(line) {
		return op, &Error{Msg: "invalid UTF-8"}
	}
	if err := scanObject(line); err != nil {
		return op, err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&op); err != nil {
		return Op{}, jsonError(err)
	}
	return op, nil
}

// scanObject checks what encoding/json lets through: the line must be a
// single JSON object whose keys are exactly Op's JSON field names, each at
// most once, with no null values.
func scanObject(line []byte) *Error {
	// Syntax first: json.Unmarshal checks the whole line, trailing data
	// included, and reports accurate offsets.
	if err := json.Unmarshal(line, new(json.RawMessage)); err != nil {
		return jsonError(err)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	tok, err := dec.Token()
	if err != nil {
		return jsonError(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return &Error{Msg: "expected a JSON object, got " + describe(tok)}
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jsonError(err)
		}
		key, ok := tok.(string)
		if !ok { // not reachable with encoding/json, kept for safety
			return &Error{Msg: "malformed JSON: expected a field name"}
		}
		if !jsonFields[key] {
			for f := range jsonFields {
				if strings.EqualFold(f, key) {
					return &Error{Field: key, Msg: fmt.Sprintf("unknown field (names are lower case: %q)", f)}
				}
			}
			return &Error{Field: key, Msg: "unknown field"}
		}
		if seen[key] {
			return &Error{Field: key, Msg: "field given twice"}
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return jsonError(err)
		}
		if string(raw) == "null" {
			return &Error{Field: key, Msg: "must not be null"}
		}
	}
	return nil
}

// describe names a JSON token for an error message.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '[':
			return "an array"
		case '{':
			return "an object"
		}
		return strconv.Quote(v.String())
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", tok)
}

// jsonError turns an encoding/json error into an Error.
func jsonError(err error) *Error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Msg: "malformed JSON: line ends before the JSON value is complete"}
	case errors.As(err, &syn):
		msg := strings.TrimPrefix(syn.Error(), "json: ")
		if msg == "unexpected end of JSON input" {
			return &Error{Msg: "malformed JSON: line ends before the JSON value is complete"}
		}
		return &Error{Msg: fmt.Sprintf("malformed JSON at column %d: %s", syn.Offset, msg)}
	case errors.As(err, &typ):
		field := typ.Field
		if i := strings.LastIndexByte(field, '.'); i >= 0 {
			field = field[i+1:]
		}
		return &Error{Field: field, Msg: typeMsg(typ)}
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if f, ok := strings.CutPrefix(msg, "unknown field "); ok {
		if name, uerr := strconv.Unquote(f); uerr == nil {
			return &Error{Field: name, Msg: "unknown field"}
		}
	}
	return &Error{Msg: msg}
}

func typeMsg(e *json.UnmarshalTypeError) string {
	t := e.Type
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	want := "a valid value"
	if t != nil {
		switch t.Kind() {
		case reflect.String:
			want = "a string"
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			want = "an integer"
			if num, ok := strings.CutPrefix(e.Value, "number "); ok && !strings.ContainsAny(num, ".eE") {
				return fmt.Sprintf("integer %s out of range", num)
			}
		}
	}
	return fmt.Sprintf("must be %s, got %s", want, e.Value)
}
