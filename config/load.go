package config

import (
	"errors"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// Load reads the node description at path (at most MaxFileBytes), applies the -set overrides in
// order (each "KEY=VALUE", see set.go), validates the result and returns it.
//
// Loading is strict: a syntax error, a value of the wrong type, an unknown
// key or a missing key is an error, and so is any value that fails
// validation. The error is an *Error whose message is one line naming the
// file, line and key ("configs/x.toml:12: xgmi.bundle[3].lanes: must be
// 1..16 (0 removes the bundle), got 17"), or the offending override ("-set
// routing.sdma=wide: must be "widest" or "fewest", got "wide"").
//
// Bundles with lanes = 0 are dropped from the returned Node.
func Load(path string, sets []string) (*Node, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, sets)
}

// Parse is Load on TOML text already in memory; file names it in errors
// and locates its base, if it has one (base.go).
func Parse(file string, data []byte, sets []string) (*Node, error) {
	s, err := NewSource(file, data, nil)
	if err != nil {
		return nil, err
	}
	return s.Node(sets)
}

// Node merges the config with its bases, applies the -set overrides in
// order, validates the result and returns it, as Load does.
func (s *Source) Node(sets []string) (*Node, error) { return s.NodeWith(Sets(sets)) }

// NodeWith is Node with overrides that other flags may have made: errors
// name each as the user gave it.
func (s *Source) NodeWith(sets []Override) (*Node, error) {
	// 1-3 depend on the files alone: done once, each call sets a copy
	s.once.Do(func() { s.decoded, s.at, s.err = s.decode() })
	if s.err != nil {
		return nil, s.err
	}
	n, at := copyNode(s.decoded), s.at

	// 4. Overrides.
	st := &setter{sets: sets, prov: map[string]int{}}
	for i := range sets {
		if err := st.apply(n, i); err != nil {
			return nil, err
		}
	}

	// 5. Validation, blaming the override that wrote the bad value or one
	// it was checked against, else the file and line that did.
	if errs := n.validate(); len(errs) > 0 {
		e := errs[0]
		if i := st.blame(e.key, e.related); i >= 0 {
			return nil, &Error{Set: sets[i].Set, Flag: sets[i].Flag, Key: e.key, Msg: e.msg}
		}
		return nil, at.blame(e.key, e.related, e.msg)
	}
	n.removeDeadBundles()
	n.partition()
	return n, nil
}

// decode is Node's first three steps, which depend on the files alone:
// the files merged, checked and decoded, before any -set.
func (s *Source) decode() (*Node, *origin, error) {
	// 1. Syntax, with BurntSushi/toml, into generic data, merged over the
	// bases. NewSource read each file once; this parses the texts once
	// for every Node of the Source.
	raw, at, err := s.merge()
	if err != nil {
		return nil, nil, err
	}

	// 2. Strict typed assignment of the generic data: types, unknown keys,
	// missing keys, with exact key paths ("xgmi.bundle[3].lanes") that
	// BurntSushi's own messages lack. The first problem in file order wins.
	var check Node
	d := &decoder{lines: at}
	if len(s.layers) > 1 {
		d.missingIn = s.chain(" or its base ")
	}
	d.assign(reflect.ValueOf(&check).Elem(), raw, "")
	d.missing(reflect.TypeOf(check), raw, "")
	if len(d.errs) > 0 {
		first := d.errs[0]
		for _, e := range d.errs[1:] {
			if at.lookup(e.key) < at.lookup(first.key) {
				first = e
			}
		}
		return nil, nil, at.errorAt(first.key, first.msg)
	}

	// 3. The Node itself, decoded by BurntSushi/toml, strictly. Step 2
	// catches everything this catches; this is a second net. A derived
	// config has no text of its own: step 2 made it.
	n := &check
	if len(s.layers) == 1 {
		file, text := s.layers[0].file, s.layers[0].text
		n = &Node{}
		md, err := toml.Decode(text, n)
		if err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) {
				return nil, nil, &Error{File: file, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message, Err: err}
			}
			return nil, nil, &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "toml: "), Err: err}
		}
		if und := md.Undecoded(); len(und) > 0 {
			return nil, nil, at.errorAt(und[0].String(), "unknown key")
		}
	}
	return n, at, nil
}

// syntaxError turns a TOML parser error into a one-line *Error.
func syntaxError(file string, lines *lineIndex, err error) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "toml: "), Err: err}
	}
	line := pe.Position.Line
	key := lines.byLine[line]
	if key == "" && line == 0 {
		key = pe.LastKey
	}
	msg := pe.Message
	if msg == "" {
		msg = err.Error()
	}
	return &Error{File: file, Line: line, Key: key, Msg: "TOML syntax: " + msg, Err: err}
}
