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

// jsonNames returns the JSON names of T's fields, read from its struct tags.
func jsonNames[T any]() map[string]bool {
	m := map[string]bool{}
	t := reflect.TypeFor[T]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			m[name] = true
		}
	}
	return m
}

var (
	jsonFields   = jsonNames[Op]()     // keys of an op object
	accessFields = jsonNames[Access]() // keys of an object in an op's access array
)

// MaxFileBytes bounds a trace file (1 GiB, millions of ops): a wrong
// argument such as a disk image stops with an error instead of filling memory.
const MaxFileBytes = 1 << 30

// ReadFile parses the trace file at path, reading it once, so a pipe
// (-trace /dev/stdin) works, and at most MaxFileBytes; errors name the
// file as path.
func ReadFile(path string) ([]Op, error) {
	return readFile(path, path, MaxFileBytes)
}

// ReadFileAs is ReadFile of the file at read, its errors naming it name
// (a trace Spool copied).
func ReadFileAs(read, name string) ([]Op, error) {
	return readFile(read, name, MaxFileBytes)
}

func readFile(read, path string, limit int64) ([]Op, error) {
	f, err := os.Open(read)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lines := 0 // a file is read twice: first its lines are counted, so the ops are allocated once
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() <= limit {
		buf := make([]byte, 1<<20)
		for {
			n, err := f.Read(buf)
			lines += bytes.Count(buf[:n], []byte{'\n'})
			if err != nil {
				break
			}
		}
		lines = min(lines, int(st.Size()/20)+1) // blank lines take no op; no op line is under 20 bytes
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	r := &capReader{r: f, left: limit}
	ops, err := parse(r, path, lines+1)
	if r.over {
		return nil, &Error{File: path, Msg: fmt.Sprintf("larger than %d MiB (the limit for a trace)", limit>>20)}
	}
	return ops, err
}

// capReader reads at most left bytes of r and fails past them.
type capReader struct {
	r    io.Reader
	left int64
	over bool
}

var errTooLarge = errors.New("file too large")

func (c *capReader) Read(p []byte) (int, error) {
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1] // one byte more tells a file of exactly the limit from a larger one
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		c.over = true
		return n, errTooLarge
	}
	return n, err
}

// Parse reads a JSON Lines trace: one JSON object (an Op) per line. Blank
// lines and lines whose first non-blank character is '#' are skipped. Each
// object is decoded strictly: field names must match exactly (case
// included), appear at most once and not be null; unknown fields, wrong
// types and anything after the object are errors. The objects in a kernel's
// access array are decoded just as strictly, and their errors name the
// field as in "access[1].mode". Each returned Op has Line
// set. Parse stops at the first problem and returns it as an *Error naming
// name and the line. Parse only decodes; see Check for consistency.
func Parse(r io.Reader, name string) ([]Op, error) {
	return parse(r, name, 1024)
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
	op, keys, accessKeys, ok := parseFast(line)
	if !ok { // the slow path finds what is wrong, or decodes what the fast one left
		var perr *Error
		if keys, accessKeys, perr = scanObject(line); perr != nil {
			return Op{}, perr
		}
		op = Op{}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&op); err != nil {
			return Op{}, jsonError(err)
		}
	}
	if len(op.Access) == 0 {
		op.Access = nil // "access":[] reads like no access, as Write leaves it out
	}
	if len(op.GCDs) == 0 {
		op.GCDs = nil // "gcds":[] likewise
	}
	if e := given(&op, keys, accessKeys); e != nil {
		return Op{}, e
	}
	return op, nil
}

// given rejects what only the keys present on the line show, since a zero
// value reads the same as a field left out: a field the op's kind does not
// use ("numa":0 on a kernel), a stride on an access that is not strided
// ("stride":0, pattern sequential), and a zero where zero is no value
// ("threads":0, "element":0, "wait_flag":""). Ops of unknown kind are left
// to Check.
func given(o *Op, keys []string, accessKeys [][]string) *Error {
	allowed, ok := fieldsOf[o.Op]
	if !ok {
		return nil
	}
	if e := unused(o.Op, allowed, keys); e != nil {
		return e
	}
	if contains(keys, "threads") && o.Threads == 0 {
		return &Error{Field: "threads", Msg: "must be >= 1, got 0"}
	}
	if contains(keys, "wait_flag") && o.WaitFlag == "" {
		return &Error{Field: "wait_flag", Msg: "must be a flag name, got \"\""}
	}
	if contains(keys, "set_flag") && o.SetFlag == "" {
		return &Error{Field: "set_flag", Msg: "must be a flag name, got \"\""}
	}
	for i, ks := range accessKeys {
		a, p := &o.Access[i], fmt.Sprintf("access[%d].", i)
		if contains(ks, "stride") && (a.Pattern == "" || a.Pattern == "sequential" || a.Pattern == "random") {
			return &Error{Field: p + "stride", Msg: fmt.Sprintf("not used by pattern %q", patternName(a.Pattern))}
		}
		if contains(ks, "element") && a.Element == 0 {
			return &Error{Field: p + "element", Msg: "must be > 0, got 0"}
		}
		if contains(ks, "passes") && a.Passes == 0 {
			return &Error{Field: p + "passes", Msg: "must be >= 1, got 0"}
		}
	}
	return nil
}

// scanObject checks what encoding/json lets through: the line must be a
// single JSON object whose keys are exactly Op's JSON field names, each at
// most once, with no null values; the same goes for the objects in its
// access array (see scanAccess). It returns the keys present, in line
// order, and those of each access object.
func scanObject(line []byte) (keys []string, accessKeys [][]string, e *Error) {
	// Syntax first: json.Unmarshal checks the whole line, trailing data
	// included, and reports accurate offsets.
	if err := json.Unmarshal(line, new(json.RawMessage)); err != nil {
		return nil, nil, jsonError(err)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, jsonError(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, &Error{Msg: "expected a JSON object, got " + describe(tok)}
	}
	keys, e = scanFields(dec, jsonFields, "", func(key string, raw json.RawMessage) *Error {
		if key == "access" {
			var ae *Error
			accessKeys, ae = scanAccess(raw)
			return ae
		}
		return nil
	})
	return keys, accessKeys, e
}

// scanFields reads the rest of an object whose opening '{' dec has just
// returned and returns its keys in order. Its keys must be in known, each
// at most once, and its values not null; check, if not nil, sees each
// value then. Errors name a field as prefix+key.
func scanFields(dec *json.Decoder, known map[string]bool, prefix string, check func(key string, raw json.RawMessage) *Error) ([]string, *Error) {
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonError(err)
		}
		key, ok := tok.(string)
		if !ok { // not reachable with encoding/json, kept for safety
			return nil, &Error{Msg: "malformed JSON: expected a field name"}
		}
		field := prefix + key
		if !known[key] {
			for f := range known {
				if strings.EqualFold(f, key) {
					return nil, &Error{Field: field, Msg: fmt.Sprintf("unknown field (names are lower case: %q)", f)}
				}
			}
			return nil, &Error{Field: field, Msg: "unknown field"}
		}
		if contains(keys, key) {
			return nil, &Error{Field: field, Msg: "field given twice"}
		}
		keys = append(keys, key)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, jsonError(err)
		}
		if string(raw) == "null" {
			return nil, &Error{Field: field, Msg: "must not be null"}
		}
		if check != nil {
			if e := check(key, raw); e != nil {
				return nil, e
			}
		}
	}
	return keys, nil
}

// scanAccess checks the value of an op's "access" field (syntactically
// valid JSON, not null): it must be an array of objects, each with only
// Access's JSON field names, at most once, no nulls, and values of the
// right types. Errors name the field as "access[I].KEY". It returns each
// object's keys.
func scanAccess(raw json.RawMessage) ([][]string, *Error) {
	if k := jsonKind(raw); k != "array" {
		return nil, &Error{Field: "access", Msg: "must be an array of objects, got " + k}
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil { // not reachable: raw is a valid array
		e := jsonError(err)
		e.Field = "access"
		return nil, e
	}
	var all [][]string
	for i, el := range elems {
		field := fmt.Sprintf("access[%d]", i)
		switch k := jsonKind(el); k {
		case "object":
		case "null":
			return nil, &Error{Field: field, Msg: "must not be null"}
		default:
			return nil, &Error{Field: field, Msg: "must be an object, got " + k}
		}
		dec := json.NewDecoder(bytes.NewReader(el))
		if _, err := dec.Token(); err != nil { // the '{'
			return nil, jsonError(err)
		}
		keys, e := scanFields(dec, accessFields, field+".", nil)
		if e != nil {
			return nil, e
		}
		all = append(all, keys)
		// Keys are now exact and unique; decoding finds wrong types.
		dec = json.NewDecoder(bytes.NewReader(el))
		dec.DisallowUnknownFields()
		if err := dec.Decode(new(Access)); err != nil {
			e := jsonError(err)
			if e.Field == "" {
				e.Field = field
			} else {
				e.Field = field + "." + e.Field
			}
			return nil, e
		}
	}
	return all, nil
}

// jsonKind names the type of a syntactically valid JSON value as
// encoding/json's type errors do: "object", "array", "string", "number",
// "bool" or "null".
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
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
		case reflect.Float32, reflect.Float64:
			want = "a number"
			if num, ok := strings.CutPrefix(e.Value, "number "); ok {
				return fmt.Sprintf("number %s out of range", num)
			}
		case reflect.Bool:
			want = "true or false"
		case reflect.Slice:
			want = "an array"
		case reflect.Struct:
			want = "an object"
		}
	}
	return fmt.Sprintf("must be %s, got %s", want, e.Value)
}
