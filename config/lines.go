package config

import (
	"strconv"
	"strings"
)

// lineIndex maps key paths of a TOML text to the line that defines them.
//
// Key paths are the dotted keys the rest of the package uses in messages:
// "xgmi.lane_bandwidth_gbps", "xgmi.bundle[2].lanes", "host.gcd_numa[5]".
// Elements of arrays of tables ([[xgmi.bundle]]) and of inline arrays are
// numbered from 0 in order of appearance. The indexer is lenient: it runs on
// text the TOML parser may have rejected, never fails and never panics; at
// worst it misses keys.
type lineIndex struct {
	key    map[string]int // key path -> line of its first definition
	byLine map[int]string // line -> first key path defined on it
}

// lookup returns the line of key, or of its nearest enclosing table or array
// element that has one ("xgmi.bundle[3].lanes" -> "xgmi.bundle[3]" ->
// "xgmi.bundle" -> "xgmi"), or 0.
func (ix *lineIndex) lookup(key string) int {
	if ix == nil {
		return 0
	}
	for k := key; k != ""; k = parentKey(k) {
		if l, ok := ix.key[k]; ok {
			return l
		}
	}
	return 0
}

// has reports whether key itself was defined in the text.
func (ix *lineIndex) has(key string) bool {
	if ix == nil {
		return false
	}
	_, ok := ix.key[key]
	return ok
}

// parentKey strips the last component of a key path: "a.b[2].c" -> "a.b[2]"
// -> "a.b" -> "a" -> "".
func parentKey(k string) string {
	if strings.HasSuffix(k, "]") {
		if i := strings.LastIndexByte(k, '['); i >= 0 {
			return k[:i]
		}
	}
	// Skip a quoted last part, which may contain dots.
	if strings.HasSuffix(k, `"`) && len(k) >= 2 {
		for i := len(k) - 2; i >= 0; i-- {
			if k[i] == '"' && (i == 0 || k[i-1] != '\\') {
				if i > 0 && k[i-1] == '.' {
					return k[:i-1]
				}
				return ""
			}
		}
		return ""
	}
	if i := strings.LastIndexByte(k, '.'); i >= 0 {
		return k[:i]
	}
	return ""
}

// keyPart writes one key component as it appears in key paths: bare when it
// is a valid bare key, quoted otherwise.
func keyPart(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if !isBare(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// joinKey appends one component to a key path.
func joinKey(path, part string) string {
	if path == "" {
		return keyPart(part)
	}
	return path + "." + keyPart(part)
}

// indexKey appends an array index to a key path.
func indexKey(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

func isBare(r rune) bool {
	return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}

// indexLines scans TOML text and records the line of every key path.
func indexLines(src string) *lineIndex {
	s := &lineScanner{
		src:    src,
		line:   1,
		ix:     &lineIndex{key: map[string]int{}, byLine: map[int]string{}},
		arrays: map[string]int{},
	}
	s.document()
	return s.ix
}

type lineScanner struct {
	src    string
	pos    int
	line   int
	ix     *lineIndex
	arrays map[string]int // resolved path of an array of tables -> elements so far
	table  string         // resolved path of the current [table]
}

func (s *lineScanner) record(key string, line int) {
	if key == "" {
		return
	}
	if _, ok := s.ix.key[key]; !ok {
		s.ix.key[key] = line
	}
	if _, ok := s.ix.byLine[line]; !ok {
		s.ix.byLine[line] = key
	}
}

func (s *lineScanner) eof() bool { return s.pos >= len(s.src) }

func (s *lineScanner) peek() byte {
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

func (s *lineScanner) at(prefix string) bool { return strings.HasPrefix(s.src[s.pos:], prefix) }

func (s *lineScanner) advance() {
	if s.pos < len(s.src) {
		if s.src[s.pos] == '\n' {
			s.line++
		}
		s.pos++
	}
}

// skipSpace skips blanks and, if newlines, also newlines and comments.
func (s *lineScanner) skipSpace(newlines bool) {
	for !s.eof() {
		switch c := s.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			s.advance()
		case c == '\n' && newlines:
			s.advance()
		case c == '#' && newlines:
			s.skipLine()
		default:
			return
		}
	}
}

// skipLine skips to the start of the next line.
func (s *lineScanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.advance()
	}
	s.advance()
}

func (s *lineScanner) document() {
	for {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		start := s.pos
		if s.peek() == '[' {
			s.header()
		} else {
			s.keyValue(s.table)
		}
		// Whatever is left on the line is a comment or garbage.
		if s.pos == start {
			s.skipLine()
		} else {
			s.skipSpace(false)
			if !s.eof() && s.peek() != '\n' {
				s.skipLine()
			}
		}
	}
}

// header handles [a.b] and [[a.b]].
func (s *lineScanner) header() {
	line := s.line
	array := s.at("[[")
	s.advance()
	if array {
		s.advance()
	}
	parts := s.key()
	s.skipSpace(false)
	if s.at("]") {
		s.advance()
	}
	if array && s.at("]") {
		s.advance()
	}
	if len(parts) == 0 {
		return
	}
	// Resolve every prefix that is an array of tables to its last element.
	path := ""
	for i, p := range parts {
		path = joinKey(path, p)
		last := i == len(parts)-1
		if last && array {
			n := s.arrays[path]
			s.arrays[path] = n + 1
			s.record(path, line)
			path = indexKey(path, n)
			break
		}
		s.record(path, line)
		if n, ok := s.arrays[path]; ok && n > 0 {
			path = indexKey(path, n-1)
		}
	}
	s.record(path, line)
	s.table = path
}

// keyValue handles key = value inside the table at path.
func (s *lineScanner) keyValue(table string) {
	line := s.line
	parts := s.key()
	if len(parts) == 0 {
		return
	}
	path := table
	for _, p := range parts {
		path = joinKey(path, p)
		s.record(path, line)
	}
	s.skipSpace(false)
	if !s.at("=") {
		return
	}
	s.advance()
	s.skipSpace(false)
	s.value(path)
}

// key reads a possibly dotted, possibly quoted key.
func (s *lineScanner) key() []string {
	var parts []string
	for {
		s.skipSpace(false)
		switch c := s.peek(); {
		case c == '"':
			parts = append(parts, s.basicString())
		case c == '\'':
			parts = append(parts, s.literalString())
		case c < 0x80 && isBare(rune(c)):
			start := s.pos
			for !s.eof() && s.peek() < 0x80 && isBare(rune(s.peek())) {
				s.advance()
			}
			parts = append(parts, s.src[start:s.pos])
		default:
			return parts
		}
		s.skipSpace(false)
		if !s.at(".") {
			return parts
		}
		s.advance()
	}
}

// value skips one value, recording the elements of arrays and the keys of
// inline tables under path.
func (s *lineScanner) value(path string) {
	switch {
	case s.at(`"""`):
		s.multiString(`"""`, true)
	case s.at(`'''`):
		s.multiString(`'''`, false)
	case s.at(`"`):
		s.basicString()
	case s.at(`'`):
		s.literalString()
	case s.at("["):
		s.advance()
		for i := 0; ; i++ {
			s.skipSpace(true)
			if s.eof() || s.at("]") {
				break
			}
			start := s.pos
			elem := indexKey(path, i)
			s.record(elem, s.line)
			s.value(elem)
			s.skipSpace(true)
			if s.at(",") {
				s.advance()
			} else if s.pos == start {
				s.advance() // garbage: make progress
			}
		}
		s.advance()
	case s.at("{"):
		s.advance()
		for {
			s.skipSpace(true)
			if s.eof() || s.at("}") {
				break
			}
			start := s.pos
			s.keyValue(path)
			s.skipSpace(true)
			if s.at(",") {
				s.advance()
			} else if s.pos == start {
				s.advance()
			}
		}
		s.advance()
	default:
		// Number, boolean, date: up to a delimiter.
		for !s.eof() && !strings.ContainsRune(",]}\n#", rune(s.peek())) {
			s.advance()
		}
	}
}

// basicString reads "..." and returns its (roughly unescaped) content.
func (s *lineScanner) basicString() string {
	s.advance()
	var b strings.Builder
	for !s.eof() {
		c := s.peek()
		switch c {
		case '"':
			s.advance()
			if v, err := strconv.Unquote(`"` + b.String() + `"`); err == nil {
				return v
			}
			return b.String()
		case '\n':
			return b.String()
		case '\\':
			b.WriteByte(c)
			s.advance()
			if !s.eof() && s.peek() != '\n' {
				b.WriteByte(s.peek())
				s.advance()
			}
			continue
		}
		b.WriteByte(c)
		s.advance()
	}
	return b.String()
}

// literalString reads '...'.
func (s *lineScanner) literalString() string {
	s.advance()
	start := s.pos
	for !s.eof() && s.peek() != '\'' && s.peek() != '\n' {
		s.advance()
	}
	v := s.src[start:s.pos]
	if s.at("'") {
		s.advance()
	}
	return v
}

// multiString skips a """ or ”' string.
func (s *lineScanner) multiString(delim string, escapes bool) {
	s.pos += len(delim)
	for !s.eof() {
		if escapes && s.peek() == '\\' {
			s.advance()
			s.advance()
			continue
		}
		if s.at(delim) {
			s.pos += len(delim)
			// Up to two more quotes may belong to the content.
			for i := 0; i < 2 && s.at(delim[:1]); i++ {
				s.advance()
			}
			return
		}
		s.advance()
	}
}
