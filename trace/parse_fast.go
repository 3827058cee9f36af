package trace

import (
	"encoding/json"
)

// A fast path for the common line: one pass finds the keys of the object
// and of its access objects, and sees that none is unknown, repeated or
// null; then a single json.Unmarshal decodes it. Anything else (an
// escape in a key, a null, a syntax or type error) goes to the slow path,
// which finds and words the error (parseLine). Both give the same op for
// a good line.

// fastKeys scans a line holding one JSON object. ok is false where the
// slow path must decide.
func fastKeys(line []byte) (keys []string, accessKeys [][]string, ok bool) {
	s := scanner{b: line}
	s.ws()
	if !s.eat('{') {
		return nil, nil, false
	}
	keys, ok = s.object(jsonFields, func(key string) bool {
		if key != "access" {
			return s.skip()
		}
		if !s.eat('[') {
			return false // not an array: the slow path words it
		}
		if s.ws(); s.eat(']') {
			return true
		}
		for {
			s.ws()
			if !s.eat('{') {
				return false
			}
			ks, ok := s.object(accessFields, func(string) bool { return s.skip() })
			if !ok {
				return false
			}
			accessKeys = append(accessKeys, ks)
			s.ws()
			if s.eat(']') {
				return true
			}
			if !s.eat(',') {
				return false
			}
		}
	})
	s.ws()
	return keys, accessKeys, ok && s.i == len(s.b)
}

// scanner walks a line's bytes.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\r' || s.b[s.i] == '\n') {
		s.i++
	}
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads the rest of an object after its '{': keys known, each
// once, each value read by value (which stops at its end).
func (s *scanner) object(known map[string]bool, value func(key string) bool) ([]string, bool) {
	var keys []string
	s.ws()
	if s.eat('}') {
		return keys, true
	}
	for {
		s.ws()
		key, ok := s.key()
		if !ok || !known[key] || contains(keys, key) {
			return nil, false
		}
		keys = append(keys, key)
		if s.ws(); !s.eat(':') {
			return nil, false
		}
		if s.ws(); s.i+4 <= len(s.b) && string(s.b[s.i:s.i+4]) == "null" {
			return nil, false
		}
		if !value(key) {
			return nil, false
		}
		s.ws()
		if s.eat('}') {
			return keys, true
		}
		if !s.eat(',') {
			return nil, false
		}
	}
}

// key reads a key without escapes.
func (s *scanner) key() (string, bool) {
	if !s.eat('"') {
		return "", false
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '"':
			k := string(s.b[start:s.i])
			s.i++
			return k, true
		case '\\':
			return "", false
		}
		s.i++
	}
	return "", false
}

// skip passes over one value: strings (escapes included) and nested
// arrays and objects as a whole; json.Unmarshal checks them afterwards.
func (s *scanner) skip() bool {
	depth := 0
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch c {
		case '"':
			s.i++
			for s.i < len(s.b) && s.b[s.i] != '"' {
				if s.b[s.i] == '\\' {
					s.i++
				}
				s.i++
			}
			if s.i >= len(s.b) {
				return false
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				return true // the end of the enclosing object: the value ended before
			}
			depth--
		case ',':
			if depth == 0 {
				return true
			}
		}
		s.i++
		if depth == 0 && (c == '"' || c == ']' || c == '}') {
			return true
		}
	}
	return depth == 0
}

// parseFast is parseLine's fast path; ok is false where it cannot decide.
func parseFast(line []byte) (op Op, keys []string, accessKeys [][]string, ok bool) {
	keys, accessKeys, ok = fastKeys(line)
	if !ok {
		return Op{}, nil, nil, false
	}
	if err := json.Unmarshal(line, &op); err != nil {
		return Op{}, nil, nil, false
	}
	return op, keys, accessKeys, true
}
